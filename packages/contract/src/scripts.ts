// Scripts of projects and folders (spec §3 Script, §7 script calls, storescriptfile) and what a
// test image's processing reports of them (spec §2 Overview).
import { z } from 'zod';
import { commandStarted } from './commands.ts';
import { idParam, okResult } from './common.ts';
import { forMembers, forNode, teamRoute } from './route.ts';

export const scriptLimits = {
  /** A script's source, in characters. */
  sourceChars: 100_000,
  fileNameChars: 255,
  /** The scripts' log kept with an upload (UTF-8 bytes); the rest is cut with a marker (issue 25). */
  storedLogBytes: 16_384,
} as const;

/** Script upload accepts .script (spec §5). */
export const scriptFileName = z
  .string()
  .trim()
  .min(1)
  .max(scriptLimits.fileNameChars)
  .regex(/\.script$/i, 'must be a .script file');

export const script = z.object({ filename: z.string(), source: z.string() });
export type Script = z.infer<typeof script>;

/** GET team/project/{id}/script and team/folder/{id}/script: a list of at most one. */
export const scriptParams = z.object({ id: idParam });
export const getScriptResponse = z.object({ script: z.array(script) });
export type GetScriptResponse = z.infer<typeof getScriptResponse>;

const bodyId = z.number().int().positive().max(2_147_483_647);

/** Command storescriptfile {filename, content, dbprojectid or dbfolderid}; content is text or a data URL. */
export const storeScriptFileBody = z
  .object({
    filename: scriptFileName,
    content: z.string().max(Math.ceil((scriptLimits.sourceChars * 4 * 4) / 3) + 1024),
    dbprojectid: bodyId.optional(),
    dbfolderid: bodyId.optional(),
  })
  .refine((b) => (b.dbprojectid === undefined) !== (b.dbfolderid === undefined), {
    message: 'give dbprojectid or dbfolderid',
  });
export type StoreScriptFileBody = z.infer<typeof storeScriptFileBody>;
export const storeScriptFileDetail = z.object({ filename: z.string(), size: z.number() });

/** One metadata value of a picture, as a script reads it ('locationCreated,city'). */
export const metaValue = z.object({
  propertytypeids: z.string(),
  value: z.string(),
  position: z.number().optional(),
  lang: z.string().optional(),
});
export type MetaValue = z.infer<typeof metaValue>;

/** What processing did to a test image beyond the file: shown beside the download. */
export const processingReport = z.object({
  /** The name the file would be delivered under. */
  filename: z.string(),
  /** Metadata before processing (as received) and after (template and scripts). */
  before: z.array(metaValue),
  after: z.array(metaValue),
  /** Destinations a script skipped. */
  skipped: z.array(z.string()),
  /** A script's reject(reason): the file would go nowhere. */
  rejected: z.string().nullable(),
  log: z.array(z.string()),
});
export type ProcessingReport = z.infer<typeof processingReport>;

// ---- routes (spec §7 "Folders and tree": script calls; "Image processing and metadata") ----

export type ScriptOwnerKind = 'project' | 'folder';

const getScriptOf = <K extends ScriptOwnerKind>(kind: K) =>
  teamRoute({
    method: 'GET',
    path: `/${kind}/:id/script` as const,
    params: scriptParams,
    response: getScriptResponse,
    access: forNode('read', { kind, param: 'id' }),
  });

const deleteScriptOf = <K extends ScriptOwnerKind>(kind: K) =>
  teamRoute({
    method: 'DELETE',
    path: `/${kind}/:id/script` as const,
    params: scriptParams,
    response: okResult,
    access: forNode('write', { kind, param: 'id' }),
  });

export const getProjectScript = getScriptOf('project');
export const getFolderScript = getScriptOf('folder');
export const deleteProjectScript = deleteScriptOf('project');
export const deleteFolderScript = deleteScriptOf('folder');

/** The routes of one owner kind, for the server's loop and the web's fetchers. */
export const scriptRoutesOf = {
  project: { get: getProjectScript, remove: deleteProjectScript },
  folder: { get: getFolderScript, remove: deleteFolderScript },
} as const;

/** An async command (spec §7); the owner is a project or a folder: the server checks the right on it. */
export const storeScriptFile = teamRoute({
  method: 'POST',
  path: '/command/storescriptfile',
  body: storeScriptFileBody,
  response: commandStarted,
  access: forMembers,
});
