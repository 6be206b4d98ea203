// Scripts of projects and folders (spec §3 Script, §7 script calls, storescriptfile) and what a
// test image's processing reports of them (spec §2 Overview).
import { z } from 'zod';
import { idParam } from './common.ts';

export const scriptLimits = {
  /** A script's source, in characters. */
  sourceChars: 100_000,
  fileNameChars: 255,
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
export const scriptParams = z.object({ teamUuid: z.string(), id: idParam });
export const getScriptResponse = z.object({ script: z.array(script) });
export type GetScriptResponse = z.infer<typeof getScriptResponse>;
export const deleteScriptResponse = z.object({ result: z.literal('OK') });

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
