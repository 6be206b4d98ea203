import { z } from 'zod';
import { commandStarted } from './commands.ts';
import { idParam, okResult } from './common.ts';
import { failureCause } from './jobs.ts';
import { ftpProtocols, limits } from './limits.ts';
import { forMembers, forNode, teamRoute } from './route.ts';

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
  maxConnections: z.number().int().min(1).max(limits.ftpServerConnectionsMax).optional(),
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

// ---- routes (spec §7 "FTP servers") ----

const serverNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'ftpserver', param: 'id' });
const serverParams = z.object({ id: idParam });
/** The tree's inline rename sends only a name. */
export const renameFtpServerBody = z.object({ name: ftpServerBody.shape.name });

export const listFtpServers = teamRoute({
  method: 'GET',
  path: '/ftpservers',
  response: getFtpServersResponse,
  access: forMembers,
});

export const getFtpServer = teamRoute({
  method: 'GET',
  path: '/ftpserver/:id',
  params: serverParams,
  response: getFtpServerResponse,
  access: serverNode('read'),
});

export const createFtpServer = teamRoute({
  method: 'POST',
  path: '/ftpserver',
  body: ftpServerBody,
  response: postFtpServerResponse,
  errors: ['NameTaken'],
  access: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
});

/** The whole form saves; a body with just a name renames. */
export const updateFtpServer = teamRoute({
  method: 'PUT',
  path: '/ftpserver/:id',
  params: serverParams,
  body: z.union([ftpServerBody, renameFtpServerBody]),
  response: okResult,
  errors: ['NameTaken'],
  access: serverNode('write'),
});

export const deleteFtpServer = teamRoute({
  method: 'DELETE',
  path: '/ftpserver/:id',
  params: serverParams,
  response: okResult,
  access: serverNode('write'),
});

/** 'Test': an async command (spec §7 "Async commands"). */
export const testFtpServer = teamRoute({
  method: 'POST',
  path: '/command/testftpserver',
  body: testFtpServerBody,
  response: commandStarted,
  access: forMembers,
});

// ---- Issue 28: a destination shows its health (list, page, delete confirmation) ----

export const ftpServerHealth = z.object({
  ftpserverid: z.number(),
  /** The newest finished delivery: when, and whether it arrived. */
  lastDeliveryAt: z.string().nullable(),
  lastResult: z.enum(['succeeded', 'failed']).nullable(),
  /** Pictures whose delivery to this server has not arrived yet (waiting, retrying, held). */
  waiting: z.number(),
  /** Deliveries waiting for their next try after a failed one. */
  retrying: z.number(),
  /** The newest error of a waiting or the last failed delivery. */
  lastError: z.string().nullable(),
  /** The same error named plainly (the job log's words). */
  lastCause: failureCause.nullable(),
  failing: z.boolean(),
  /** The projects that send to it (for the delete confirmation). */
  projects: z.array(z.string()),
});
export type FtpServerHealth = z.infer<typeof ftpServerHealth>;
export const listFtpServerHealth = teamRoute({
  method: 'GET',
  path: '/ftpservers/health',
  response: z.object({ health: z.array(ftpServerHealth) }),
  access: forMembers,
  summary: "Each FTP server's last delivery, pictures waiting and last error",
});
