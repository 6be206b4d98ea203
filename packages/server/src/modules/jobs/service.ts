import { AppError } from '@photorelay/contract/errors';
import type { Job } from '@photorelay/contract/jobs';
import type { Db } from '../../db/kysely.ts';
import * as queue from '../../pipeline/queue.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import * as projectQueries from '../projects/queries.ts';
import type { Member } from '../teams/service.ts';
import * as protocol from './protocol-queries.ts';
import * as recent from './recent-queries.ts';

async function requireReadableProject(db: Db, member: Member, projectId: number) {
  const project = await projectQueries.findProject(db, member.teamId, projectId);
  if (!project) throw new AppError('NotFound');
  const access = await loadAccess(db, member);
  requirePermission(access, project.folder_id, 'read');
  return { project, access };
}

export async function listJobs(
  db: Db,
  member: Member,
  projectId: number,
  pageSize: number,
  pageIndex: number,
): Promise<{ jobs: Job[]; count: number }> {
  const { project, access } = await requireReadableProject(db, member, projectId);
  const canWrite = access.can(project.folder_id, 'write');
  const [rows, count] = await Promise.all([
    protocol.pageJobs(db, project.id, pageSize, pageIndex * pageSize),
    protocol.countJobs(db, project.id),
  ]);
  const tries = new Map<number, Awaited<ReturnType<typeof protocol.triesOf>>>();
  for (const t of await protocol.triesOf(
    db,
    rows.map((r) => r.id),
  ))
    tries.set(Number(t.job_id), [...(tries.get(Number(t.job_id)) ?? []), t]);
  return {
    count,
    jobs: rows.map((r) => ({
      id: r.id,
      filename: r.path,
      filesize: Number(r.filesize),
      ftpservername: r.ftpservername,
      destprojectname: r.destprojectname,
      state: r.state,
      scheduletime: new Date(r.scheduletime).toISOString(),
      createtime: new Date(r.createtime).toISOString(),
      trynumber: r.trynumber,
      errortext: r.errortext,
      uploadduration: r.uploadduration,
      detail: { job: r.detail ?? null, processing: r.processing_detail ?? null },
      uploadId: r.upload_id,
      canRetry:
        canWrite &&
        r.destination_live &&
        (r.state === 'failed' || r.state === 'scheduled' || r.state === 'held'),
      tries: (tries.get(Number(r.id)) ?? []).map((t) => ({
        startedAt: new Date(t.started_at).toISOString(),
        durationMs: t.duration_ms,
        bytes: t.bytes === null ? null : Number(t.bytes),
        error: t.error,
      })),
    })),
  };
}

export async function summary(db: Db, member: Member) {
  const access = await loadAccess(db, member);
  const rows = await protocol.summary(db, member.teamId);
  return rows
    .filter((r) => access.can(r.folder_id, 'read'))
    .map(
      ({
        projectid,
        project,
        ftpserver,
        destination,
        jobcount,
        failedjobcount,
        heldjobcount,
        unstampedjobcount,
        retryingjobcount,
        lasterror,
        failing,
      }) => ({
        projectid,
        project,
        ftpserver,
        destination,
        jobcount,
        failedjobcount,
        heldjobcount,
        unstampedjobcount,
        retryingjobcount,
        lasterror,
        failing,
      }),
    );
}

/** 'Retry now' on the protocol tab. */
export async function retryJob(db: Db, member: Member, jobId: number, wake: () => void) {
  const job = await protocol.findJob(db, member.teamId, jobId);
  if (!job) throw new AppError('NotFound');
  const project = await projectQueries.findProject(db, member.teamId, job.project_id);
  if (!project) throw new AppError('NotFound');
  requirePermission(await loadAccess(db, member), project.folder_id, 'write');
  const result = await queue.retryNow(db, member.teamId, jobId);
  if (Number(result.numUpdatedRows) === 0)
    throw new AppError(
      'Conflict',
      'Only failed or waiting jobs whose destination is still there can be retried',
    );
  wake();
}

/** Issue 16: pictures since a time in the projects the member may read, with each delivery's state. */
export async function recentUploads(db: Db, member: Member, since: Date, limit: number) {
  const access = await loadAccess(db, member);
  const projects = await projectQueries.listTeamProjects(db, member.teamId);
  const readable = projects.filter((p) => access.can(p.folder_id, 'read')).map((p) => p.id);
  const rows = await recent.listRecentUploads(db, member.teamId, readable, since, limit);
  return rows.map((r) => ({
    id: r.id,
    projectid: r.project_id,
    project: r.project,
    filename: r.filename,
    receivedAt: new Date(r.received_at).toISOString(),
    deliveries: r.deliveries,
  }));
}
