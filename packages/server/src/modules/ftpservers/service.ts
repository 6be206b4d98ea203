import { AppError } from '@photorelay/contract/errors';
import type { FtpServerBody } from '@photorelay/contract/ftpservers';
import { limits } from '@photorelay/contract/limits';
import type { Selectable } from 'kysely';
import { testDestination } from '../../adapters/destinations/test-connection.ts';
import type { AppContext } from '../../context.ts';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';
import type { FtpServersTable } from '../../db/schema.ts';
import { endWaitingJobs } from '../../pipeline/end-waiting.ts';
import { type Access, loadAccess, requirePermission } from '../folders/permissions.ts';
import * as folderQueries from '../folders/queries.ts';
import { requireFreeName } from '../folders/unique-names.ts';
import { causeOf } from '../jobs/cause.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

type Row = Selectable<FtpServersTable>;

/** Rows never reach the client: the password is replaced by whether one is set. */
function present(row: Row, access: Access) {
  return {
    ftpserverid: row.id,
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    path: row.path,
    protocol: row.protocol,
    username: row.username,
    password: '' as const,
    passwordSet: row.password_enc !== '',
    maxConnections: row.max_connections,
    canWrite: access.can(row.folder_id, 'write'),
    parentFolderId: row.folder_id,
  };
}

async function requireServer(ctx: AppContext, member: Member, id: number, needs: 'read' | 'write') {
  const row = await q.findFtpServer(ctx.db, member.teamId, id);
  if (!row) throw new AppError('NotFound');
  const access = await loadAccess(ctx.db, member);
  requirePermission(access, row.folder_id, needs);
  return { row, access };
}

const valuesOf = (body: FtpServerBody) => ({
  name: body.name,
  host: body.host,
  port: body.port ?? null,
  path: body.path?.trim() ?? '',
  protocol: body.protocol,
  username: body.username,
  max_connections: body.maxConnections ?? limits.ftpServerConnectionsDefault,
});

export async function getFtpServer(ctx: AppContext, member: Member, id: number) {
  const { row, access } = await requireServer(ctx, member, id, 'read');
  return present(row, access);
}

export async function listFtpServers(ctx: AppContext, member: Member) {
  const access = await loadAccess(ctx.db, member);
  const rows = await q.listFtpServers(ctx.db, member.teamId);
  return rows.filter((r) => access.can(r.folder_id, 'read')).map((r) => present(r, access));
}

export async function createFtpServer(ctx: AppContext, member: Member, body: FtpServerBody) {
  if (!body.parentFolderId) throw new AppError('ValidationError', 'parentFolderId is required');
  if (!body.password) throw new AppError('ValidationError', 'password is required');
  const folder = await folderQueries.findFolder(ctx.db, member.teamId, body.parentFolderId);
  if (!folder) throw new AppError('NotFound');
  requirePermission(await loadAccess(ctx.db, member), folder.id, 'write');
  if (folder.type !== 'ftpservers')
    throw new AppError('ValidationError', 'FTP servers belong in the ftpservers tree');
  await requireFreeName(ctx.db, member.teamId, 'ftpserver', folder.id, body.name);
  const row = await q.insertFtpServer(
    ctx.db,
    member.teamId,
    folder.id,
    valuesOf(body),
    encryptSecret(ctx.config.secretKey, body.password),
  );
  return row.id;
}

type Connection = { host: string; port?: number | null; protocol: string; username: string };

/**
 * The stored password belongs to the stored host, port, protocol and user name: whoever changes
 * one of them must type the password again, or anyone allowed to edit or test could send the
 * saved secret to a host of their choice. (Host names compare without case, like DNS.)
 */
const sameConnection = (row: Row, c: Connection) =>
  row.host.toLowerCase() === c.host.trim().toLowerCase() &&
  row.port === (c.port ?? null) &&
  row.protocol === c.protocol &&
  row.username === c.username;

const passwordAgain = () =>
  new AppError('ValidationError', 'password is required when host, port, protocol or user name change');

/**
 * Saves the form; an empty password keeps the stored one only while the connection stays the
 * same. A body with only a name renames.
 */
export async function updateFtpServer(
  ctx: AppContext,
  member: Member,
  id: number,
  body: Partial<FtpServerBody> & { name: string },
) {
  const { row } = await requireServer(ctx, member, id, 'write');
  await requireFreeName(ctx.db, member.teamId, 'ftpserver', row.folder_id, body.name, row.id);
  if (body.host === undefined) {
    await q.updateFtpServer(ctx.db, member.teamId, row.id, { name: body.name });
    return;
  }
  const values = valuesOf(body as FtpServerBody);
  if (!body.password && !sameConnection(row, values)) throw passwordAgain();
  const password = body.password ? { password_enc: encryptSecret(ctx.config.secretKey, body.password) } : {};
  await q.updateFtpServer(ctx.db, member.teamId, row.id, { ...values, ...password });
}

export async function deleteFtpServer(ctx: AppContext, member: Member, id: number) {
  const { row } = await requireServer(ctx, member, id, 'write');
  await ctx.db.transaction().execute(async (trx) => {
    await endWaitingJobs(trx, { ftpServerId: row.id }, 'deleted');
    await q.deleteFtpServer(trx, member.teamId, row.id);
  });
}

type TestInput = Connection & {
  password?: string;
  path?: string;
  protocol: 'ftp' | 'ftps' | 'sftp';
  ftpserverid?: number;
};

/**
 * A Test with the stored password: only for members who may change that server, and only
 * against its stored connection. Checked when the Test is asked for (a clear 4xx) and again
 * when it runs (rights or the server may have changed meanwhile). Returns the stored row.
 */
export async function requireStoredPasswordUse(ctx: AppContext, member: Member, input: TestInput) {
  if (input.password || !input.ftpserverid) return undefined;
  const { row } = await requireServer(ctx, member, input.ftpserverid, 'write');
  if (!sameConnection(row, input)) throw passwordAgain();
  return row;
}

/** The 'Test' command: connect, log in, enter the path, list it (runs in the command runner). */
export async function testFtpServer(ctx: AppContext, member: Member, input: TestInput) {
  const stored = await requireStoredPasswordUse(ctx, member, input);
  const password = stored ? decryptSecret(ctx.config.secretKey, stored.password_enc) : (input.password ?? '');
  return testDestination({
    protocol: input.protocol,
    host: input.host,
    port: input.port ?? undefined,
    username: input.username,
    password,
    path: input.path ?? '',
    allowPrivateNetworks: ctx.config.ALLOW_PRIVATE_NETWORKS,
    timeoutMs: 20_000,
  });
}

/** Issue 28: the health of the servers the member may read (list, page, delete confirmation). */
export async function listFtpServerHealth(ctx: AppContext, member: Member) {
  const access = await loadAccess(ctx.db, member);
  const rows = await q.ftpServerHealth(ctx.db, member.teamId);
  return rows
    .filter((r) => access.can(r.folder_id, 'read'))
    .map((r) => {
      const lastError = r.open_error ?? (r.last_state === 'failed' ? r.last_error : null);
      return {
        ftpserverid: r.id,
        lastDeliveryAt: r.last_at ? new Date(r.last_at).toISOString() : null,
        lastResult: r.last_state,
        waiting: r.waiting,
        retrying: r.retrying,
        lastError,
        lastCause: lastError === null ? null : causeOf(lastError, r.name),
        failing: r.retrying > 0 || r.last_state === 'failed',
        projects: r.projects ?? [],
      };
    });
}
