import { z } from 'zod';
import { ftpProtocols, limits } from './limits.ts';

const field = z.string().max(limits.ftpServerField);
// Spec §5: port optional, digits only, 1 to 65535.
export const portField = z
  .union([z.number().int(), z.string().regex(/^\d*$/), z.null()])
  .transform((v) => (v === '' || v === null ? null : Number(v)))
  .refine((v) => v === null || (v >= limits.portMin && v <= limits.portMax), {
    message: 'Port must be between 1 and 65535',
  });

export const ftpServerBody = z.object({
  name: z.string().trim().min(1).max(limits.ftpServerName),
  host: z.string().trim().min(1).max(limits.ftpServerField),
  port: portField.optional(),
  path: field.optional(),
  protocol: z.enum(ftpProtocols).default('ftp'),
  username: z.string().min(1).max(limits.ftpServerField),
  /** Empty on update keeps the stored password. */
  password: field.optional(),
  maxConnections: z.number().int().min(1).max(16).optional(),
  parentFolderId: z.number().int().positive().optional(),
});
export type FtpServerBody = z.infer<typeof ftpServerBody>;

export const ftpServer = z.object({
  ftpserverid: z.number(),
  id: z.number(),
  name: z.string(),
  host: z.string(),
  port: z.number().nullable(),
  path: z.string(),
  protocol: z.enum(ftpProtocols),
  username: z.string(),
  /** Never the stored password: the form shows that one is set. */
  password: z.literal(''),
  passwordSet: z.boolean(),
  maxConnections: z.number(),
  canWrite: z.boolean(),
  parentFolderId: z.number(),
});
export const getFtpServerResponse = z.object({ ftpserver: ftpServer });
export const getFtpServersResponse = z.object({ ftpservers: z.array(ftpServer) });
export const postFtpServerResponse = z.object({ result: z.literal('OK'), ftpserverid: z.number() });

export const testFtpServerBody = z.object({
  host: z.string().trim().min(1).max(limits.ftpServerField),
  port: portField.optional(),
  username: z.string().min(1).max(limits.ftpServerField),
  password: field.optional(),
  path: field.optional(),
  protocol: z.enum(ftpProtocols).default('ftp'),
  /** With an empty password: test with the stored one of this server. */
  ftpserverid: z.number().int().positive().optional(),
});
