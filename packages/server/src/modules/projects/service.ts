import { randomInt } from 'node:crypto';
import { AppError } from '@photorelay/contract/errors';
import type { Project } from '@photorelay/contract/projects';
import type { AppContext } from '../../context.ts';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';
import { endWaitingJobs } from '../../pipeline/end-waiting.ts';
import { type Access, loadAccess, requirePermission } from '../folders/permissions.ts';
import * as folderQueries from '../folders/queries.ts';
import { requireFreeName } from '../folders/unique-names.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

// Camera keyboards are painful: no look-alike characters in generated credentials.
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
const randomString = (length: number, chars = alphabet) =>
  Array.from({ length }, () => chars[randomInt(chars.length)]).join('');
const passwordChars = `${alphabet}ABCDEFGHJKLMNPQRSTUVWXYZ`;

async function requireProject(ctx: AppContext, member: Member, id: number, needs: 'read' | 'write') {
  const project = await q.findProject(ctx.db, member.teamId, id);
  if (!project) throw new AppError('NotFound');
  const access = await loadAccess(ctx.db, member);
  requirePermission(access, project.folder_id, needs);
  return { project, access };
}

export async function createProject(
  ctx: AppContext,
  member: Member,
  input: { name: string; parentFolderId: number },
) {
  const folder = await folderQueries.findFolder(ctx.db, member.teamId, input.parentFolderId);
  if (!folder) throw new AppError('NotFound');
  requirePermission(await loadAccess(ctx.db, member), folder.id, 'write');
  if (folder.type !== 'projects')
    throw new AppError('ValidationError', 'Projects belong in the projects tree');
  await requireFreeName(ctx.db, member.teamId, 'project', folder.id, input.name);
  // Each project has its own ingest account: a unique user name and a strong random password.
  for (let attempt = 0; ; attempt++) {
    const username = `pr${randomString(8)}`;
    if (await q.findProjectByUsername(ctx.db, username)) {
      if (attempt > 5) throw new Error('could not find a free ingest user name');
      continue;
    }
    const passwordEnc = encryptSecret(ctx.config.secretKey, randomString(20, passwordChars));
    const row = await q.insertProject(ctx.db, {
      teamId: member.teamId,
      folderId: folder.id,
      name: input.name,
      username,
      passwordEnc,
    });
    return row.id;
  }
}

export async function getProject(ctx: AppContext, member: Member, id: number): Promise<Project> {
  const { project, access } = await requireProject(ctx, member, id, 'read');
  const [servers, destinations, allProjects, allServers] = await Promise.all([
    q.listProjectFtpServers(ctx.db, project.id),
    q.listDestinationProjects(ctx.db, project.id),
    q.listTeamProjects(ctx.db, member.teamId),
    q.listTeamFtpServers(ctx.db, member.teamId),
  ]);
  const readable = (a: Access, folderId: number) => a.can(folderId, 'read');
  const linkedServers = new Set(servers.map((s) => s.id));
  const linkedProjects = new Set(destinations.map((d) => d.id));
  return {
    projectid: project.id,
    id: project.id,
    name: project.name,
    parentFolderId: project.folder_id,
    canWrite: access.can(project.folder_id, 'write'),
    fileincount: project.fileincount,
    fileoutcount: project.fileoutcount,
    bytesreceived: project.bytesreceived,
    bytessent: project.bytessent,
    ftpAccounts: [
      {
        username: project.ingest_username,
        password: decryptSecret(ctx.config.secretKey, project.ingest_password_enc),
      },
    ],
    ingest: {
      host: ctx.config.publicFtpHost,
      ftpPort: ctx.config.FTP_PORT,
      ftpsImplicitPort: ctx.config.FTPS_IMPLICIT_PORT ?? null,
      sftpPort: ctx.config.SFTP_PORT,
    },
    // Readers of the project see every destination it delivers to (issue 16 item 4); a server or
    // project they may not open is listed by name only.
    ftpServers: servers.map((s) => {
      const canRead = readable(access, s.folder_id);
      return {
        id: s.id,
        dbftpserverid: s.id,
        name: s.name,
        protocol: s.protocol,
        host: canRead ? s.host : '',
        path: s.overridepath ?? s.defaultpath,
        defaultpath: s.defaultpath,
        overridepath: s.overridepath,
        enabled: s.enabled,
        readable: canRead,
      };
    }),
    otherFtpServers: allServers
      .filter((s) => !linkedServers.has(s.id) && readable(access, s.folder_id))
      .map(({ id, name }) => ({ id, name })),
    destinationProjects: destinations.map(({ id, name, enabled, folder_id }) => ({
      id,
      name,
      enabled,
      readable: readable(access, folder_id),
    })),
    otherProjects: allProjects
      .filter((p) => p.id !== project.id && !linkedProjects.has(p.id) && readable(access, p.folder_id))
      .map(({ id, name }) => ({ id, name })),
  };
}

export async function renameProject(ctx: AppContext, member: Member, id: number, name: string) {
  const { project } = await requireProject(ctx, member, id, 'write');
  await requireFreeName(ctx.db, member.teamId, 'project', project.folder_id, name, project.id);
  await q.renameProject(ctx.db, member.teamId, project.id, name);
}

export async function deleteProject(ctx: AppContext, member: Member, id: number) {
  const { project } = await requireProject(ctx, member, id, 'write');
  const keys = await q.listProjectBlobKeys(ctx.db, project.id);
  await q.deleteProject(ctx.db, member.teamId, project.id);
  await Promise.all(keys.map((k) => ctx.blobs.remove(k).catch(() => {})));
}

/** A destination FTP server must be one the member may read. */
async function requireReadableServer(ctx: AppContext, member: Member, access: Access, serverId: number) {
  const server = await folderQueries.findFtpServerFolder(ctx.db, member.teamId, serverId);
  if (!server || !access.can(server.folder_id, 'read')) throw new AppError('NotFound');
  return server;
}

export async function addFtpServer(ctx: AppContext, member: Member, projectId: number, serverId: number) {
  const { project, access } = await requireProject(ctx, member, projectId, 'write');
  await requireReadableServer(ctx, member, access, serverId);
  await q.addFtpServer(ctx.db, project.id, serverId);
}

export async function removeFtpServer(ctx: AppContext, member: Member, projectId: number, serverId: number) {
  const { project } = await requireProject(ctx, member, projectId, 'write');
  await ctx.db.transaction().execute(async (trx) => {
    const result = await q.removeFtpServer(trx, project.id, serverId);
    if (Number(result.numDeletedRows) === 0) throw new AppError('NotFound');
    await endWaitingJobs(trx, { ftpServerId: serverId, projectId: project.id }, 'removed');
  });
}

export async function updateFtpServerLink(
  ctx: AppContext,
  member: Member,
  projectId: number,
  serverId: number,
  change: { path?: string; enabled?: boolean },
) {
  const { project } = await requireProject(ctx, member, projectId, 'write');
  // An empty path falls back to the server's own path.
  const path = change.path === undefined ? undefined : change.path.trim() === '' ? null : change.path.trim();
  const result = await q.updateFtpServerLink(ctx.db, project.id, serverId, { path, enabled: change.enabled });
  if (Number(result.numUpdatedRows) === 0) throw new AppError('NotFound');
}

async function requireReadableProject(ctx: AppContext, member: Member, access: Access, id: number) {
  const target = await q.findProject(ctx.db, member.teamId, id);
  if (!target || !access.can(target.folder_id, 'read')) throw new AppError('NotFound');
  return target;
}

export async function addDestinationProject(
  ctx: AppContext,
  member: Member,
  projectId: number,
  destinationId: number,
) {
  const { project, access } = await requireProject(ctx, member, projectId, 'write');
  if (destinationId === project.id)
    throw new AppError('ValidationError', 'A project cannot deliver to itself');
  await requireReadableProject(ctx, member, access, destinationId);
  await q.addDestinationProject(ctx.db, project.id, destinationId);
}

export async function removeDestinationProject(
  ctx: AppContext,
  member: Member,
  projectId: number,
  destinationId: number,
) {
  const { project } = await requireProject(ctx, member, projectId, 'write');
  const result = await q.removeDestinationProject(ctx.db, project.id, destinationId);
  if (Number(result.numDeletedRows) === 0) throw new AppError('NotFound');
}

export async function setDestinationProjectEnabled(
  ctx: AppContext,
  member: Member,
  projectId: number,
  destinationId: number,
  enabled: boolean,
) {
  const { project } = await requireProject(ctx, member, projectId, 'write');
  const result = await q.setDestinationProjectEnabled(ctx.db, project.id, destinationId, enabled);
  if (Number(result.numUpdatedRows) === 0) throw new AppError('NotFound');
}

/** Traffic per hour over `days` days and per minute over the last hour (the overview's chart). */
export async function projectStats(ctx: AppContext, member: Member, projectId: number, days: number) {
  const { project } = await requireProject(ctx, member, projectId, 'read');
  const now = Date.now();
  const minuteMs = 60_000;
  const [hours, minutes] = await Promise.all([
    q.trafficStats(ctx.db, project.id, new Date(now - days * 24 * 3600_000), 'hour'),
    // The current minute and the 59 before it.
    q.trafficStats(
      ctx.db,
      project.id,
      new Date(Math.floor(now / minuteMs) * minuteMs - 59 * minuteMs),
      'minute',
    ),
  ]);
  const counts = (r: (typeof hours)[number]) => ({
    filesIn: Number(r.files_in),
    bytesIn: Number(r.bytes_in),
    filesOut: Number(r.files_out),
    bytesOut: Number(r.bytes_out),
  });
  return {
    hours: hours.map((r) => ({ hour: new Date(r.at).toISOString(), ...counts(r) })),
    minutes: minutes.map((r) => ({ minute: new Date(r.at).toISOString(), ...counts(r) })),
  };
}

export async function connectionLog(ctx: AppContext, member: Member, projectId: number) {
  const { project } = await requireProject(ctx, member, projectId, 'read');
  const rows = await q.listConnectionSessions(ctx.db, project.id, 500);
  return rows.map((r) => ({
    id: r.id,
    startedAt: new Date(r.started_at).toISOString(),
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    remoteAddress: r.remote_address,
    protocol: r.protocol,
    tls: r.tls,
    username: r.username,
    loginResult: r.login_result,
    entries: (r.entries as Array<{ at: string; kind: string; text: string }>) ?? [],
  }));
}
