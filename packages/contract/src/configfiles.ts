import { z } from 'zod';
import { limits } from './limits.ts';

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
