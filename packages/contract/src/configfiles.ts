import { z } from 'zod';
import { fileDownload, idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forMembers, forTeamAdmins, teamRoute } from './route.ts';

export const configFileInfo = z.object({
  dbconfigfileid: z.number(),
  name: z.string(),
  size: z.number(),
  time: z.string(),
});
export const getFilesResponse = z.object({ files: z.array(configFileInfo) });

export const configFileNamePattern = /^[^/\\\0<>:"|?*]{1,100}\.(xmp|json)$/i;
export const postFileBody = z.object({
  name: z.string().trim().max(limits.nameField),
  // A data URL (spec §3 Config file: content). Base64 of 100,000 bytes is about 133 KB.
  content: z.string().max(140_000),
  dbconfigfileid: z.number().int().positive().optional(),
});
export const postFileResponse = z.object({
  result: z.literal('OK'),
  dbconfigfileid: z.number(),
  size: z.number(),
});
export const getFileResponse = z.object({
  file: configFileInfo.extend({ content: z.string(), text: z.string() }),
});

/** Client and server share the spec's two checks (texts in the web's i18n). */
export function configFileProblem(name: string, size: number): 'tooLarge' | 'wrongType' | null {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (!(limits.configFileExtensions as readonly string[]).includes(ext) || !name.includes('.'))
    return 'wrongType';
  if (size >= limits.configFileBytes) return 'tooLarge';
  return null;
}

// ---- routes (spec §7 config files: list, upload/replace, delete, download, read by name) ----

const fileParams = z.object({ id: idParam });

export const listConfigFiles = teamRoute({
  method: 'GET',
  path: '/files',
  response: getFilesResponse,
  access: forTeamAdmins,
});

/** Upload, or replace the file `dbconfigfileid`. */
export const saveConfigFile = teamRoute({
  method: 'POST',
  path: '/file',
  body: postFileBody,
  response: postFileResponse,
  errors: ['PayloadTooLarge'],
  access: forTeamAdmins,
});

export const deleteConfigFile = teamRoute({
  method: 'DELETE',
  path: '/file/:id',
  params: fileParams,
  response: okResult,
  access: forTeamAdmins,
});

/** Read by name: the pages load their option lists (e.g. a category's JSON) this way. */
export const readConfigFile = teamRoute({
  method: 'GET',
  path: '/file/:name',
  params: z.object({ name: z.string().max(120) }),
  response: getFileResponse,
  access: forMembers,
});

/** The file as an attachment. */
export const downloadConfigFile = teamRoute({
  method: 'GET',
  path: '/downloadfile/:id',
  params: fileParams,
  response: fileDownload,
  access: forTeamAdmins,
});
