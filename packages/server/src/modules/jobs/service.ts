import { AppError } from '@photorelay/contract/errors';
import type { Job, ListPicturesResponse, PictureFilter, PictureRow } from '@photorelay/contract/jobs';
import { exifTextsLeft } from '@photorelay/xmp/index';
import { emptyVariableOf } from '@photorelay/xmp/variables';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import * as queue from '../../pipeline/retry.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import * as projectQueries from '../projects/queries.ts';
import type { Member } from '../teams/service.ts';
import { causeOf } from './cause.ts';
import * as pictureLog from './picture-log-queries.ts';
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

/** The projects a member may read (or write), narrowed to one when the filter names it. */
async function projectsInScope(db: Db, member: Member, level: 'read' | 'write', projectId?: number) {
  const access = await loadAccess(db, member);
  const projects = await projectQueries.listTeamProjects(db, member.teamId);
  const allowed = projects.filter((p) => access.can(p.folder_id, level));
  if (projectId === undefined) return { ids: allowed.map((p) => p.id), access, projects };
  // Another team's or an unreadable project is not found (writable checked by the caller).
  if (!projects.some((p) => p.id === projectId && access.can(p.folder_id, 'read')))
    throw new AppError('NotFound');
  if (!allowed.some((p) => p.id === projectId)) throw new AppError('MissingPermission');
  return { ids: [projectId], access, projects };
}

function groupBy<T>(items: T[], key: (item: T) => number) {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const unstampedReason = (detail: unknown): string | null => {
  const metadata = (detail as { metadata?: { error?: unknown } } | null)?.metadata;
  return typeof metadata?.error === 'string' ? metadata.error : null;
};

/** The stamping's warnings as the metadata step recorded them (pipeline/metadata-step.ts). */
const stampWarnings = (detail: unknown): string[] => {
  const warnings = (detail as { metadata?: { warnings?: unknown } } | null)?.metadata?.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
};

/** Issue 28: the variables the metadata step found empty for this picture (from its warnings). */
const emptyVariablesOf = (detail: unknown) =>
  stampWarnings(detail).flatMap((warning) => {
    const empty = emptyVariableOf(warning);
    return empty ? [empty] : [];
  });

/** Issue 28: the job log, one picture a row with its deliveries, and the destinations failing now. */
export async function listPictures(
  db: Db,
  member: Member,
  filter: PictureFilter,
  pageSize: number,
  pageIndex: number,
): Promise<ListPicturesResponse> {
  const { ids, access, projects } = await projectsInScope(db, member, 'read', filter.projectid);
  const writable = new Set(projects.filter((p) => access.can(p.folder_id, 'write')).map((p) => p.id));
  const [rows, count, failing, destinations] = await Promise.all([
    pictureLog.pagePictures(db, member.teamId, ids, filter, pageSize, pageIndex * pageSize),
    pictureLog.countPictures(db, member.teamId, ids, filter),
    pictureLog.failingDestinations(db, ids),
    pictureLog.destinationsOfProjects(db, ids),
  ]);
  const uploadIds = rows.map((r) => r.id);
  const jobRows = await pictureLog.jobsOfUploads(db, uploadIds);
  const tryRows = await protocol.triesOf(
    db,
    jobRows.map((j) => j.id),
  );
  const tries = groupBy(tryRows, (t) => Number(t.job_id));
  const jobsByUpload = groupBy(jobRows, (j) => Number(j.upload_id));
  const pictures = rows.map((r): PictureRow => {
    const jobs = jobsByUpload.get(r.id) ?? [];
    const canWrite = writable.has(r.project_id);
    // A script error fails every delivery of the picture with the same text: said once, here.
    const scriptFailure = r.state === 'failed' ? jobs.find((j) => j.errortext)?.errortext : undefined;
    const waiting = jobs.some((j) => j.state === 'scheduled' || j.state === 'running');
    return {
      uploadId: r.id,
      projectid: r.project_id,
      project: r.project,
      filename: r.filename,
      filesize: Number(r.filesize),
      receivedAt: new Date(r.received_at).toISOString(),
      cause: scriptFailure ? causeOf(scriptFailure, '') : null,
      unstamped: unstampedReason(r.processing_detail),
      exifNotUpdated: exifTextsLeft(stampWarnings(r.processing_detail)),
      emptyVariables: emptyVariablesOf(r.processing_detail),
      canSendAgain:
        canWrite && r.duplicate_of === null && (r.state === 'processed' || r.state === 'failed') && !waiting,
      deliveries: jobs.map((j) => {
        const name = j.ftpservername ?? j.destprojectname ?? '';
        const troubled = j.state === 'failed' || (j.state === 'scheduled' && j.trynumber > 0);
        return {
          jobId: j.id,
          name,
          kind: j.ftpservername === null && j.destprojectname !== null ? 'project' : 'ftpserver',
          state: j.state,
          trynumber: j.trynumber,
          scheduletime: new Date(j.scheduletime).toISOString(),
          uploadduration: j.uploadduration,
          errortext: j.errortext,
          cause: troubled && j.errortext && !scriptFailure ? causeOf(j.errortext, name) : null,
          canRetry:
            canWrite &&
            j.destination_live &&
            (j.state === 'failed' || j.state === 'scheduled' || j.state === 'held'),
          tries: (tries.get(Number(j.id)) ?? []).map((t) => ({
            startedAt: new Date(t.started_at).toISOString(),
            durationMs: t.duration_ms,
            bytes: t.bytes === null ? null : Number(t.bytes),
            error: t.error,
          })),
        };
      }),
    };
  });
  return {
    pictures,
    count: Math.min(count, pictureLog.countCap),
    countCapped: count > pictureLog.countCap,
    problems: failing.map((f) => ({
      name: f.name,
      kind: f.kind,
      projectid: f.project_id,
      waiting: f.waiting,
      cause: causeOf(f.lasterror, f.name),
    })),
    destinations,
  };
}

/** Issue 28 "Retry all failed" of a project, of one of its destinations, or of chosen deliveries. */
export async function retryFailed(
  db: Db,
  member: Member,
  scope: { projectid?: number; destination?: string; jobIds?: number[] },
  wake: () => void,
) {
  const { ids } = await projectsInScope(db, member, 'write', scope.projectid);
  const retried = await queue.retryFailedJobs(db, member.teamId, {
    projectIds: ids,
    destination: scope.destination ?? null,
    jobIds: scope.jobIds ?? null,
  });
  if (retried > 0) wake();
  return retried;
}

/** Issue 28 "Send again": processed again with today's metadata and script, then delivered. */
export async function sendAgain(ctx: AppContext, member: Member, uploadId: number, destinations?: string[]) {
  const upload = await ctx.db
    .selectFrom('uploads')
    .select(['id', 'project_id'])
    .where('team_id', '=', member.teamId)
    .where('id', '=', uploadId)
    .executeTakeFirst();
  if (!upload) throw new AppError('NotFound');
  await projectsInScope(ctx.db, member, 'write', upload.project_id);
  const sent = await queue.sendAgain(ctx.db, member.teamId, uploadId, destinations ?? null);
  if (!sent)
    throw new AppError('Conflict', 'The picture is still being processed or delivered, or is a re-sent copy');
  if (sent.jobs === 0)
    throw new AppError('ValidationError', 'None of these destinations is linked to the project');
  // The old processing's files are of no use now (a delivery copies the file it sends).
  const stale = [sent.processed_blob_key, sent.thumbnail_blob_key, sent.preview_blob_key].filter(
    (k): k is string => k !== null && k !== sent.blob_key,
  );
  await Promise.all(stale.map((k) => ctx.blobs.remove(k).catch(() => {})));
  ctx.wake.pipeline();
  return sent.jobs;
}
