// What the protocol tab and the dashboard read: one job, a page of a project's jobs, and the
// per-destination summary. The queue itself (claims, leases, tries) stays in queries.ts.
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

export const findJob = (db: Db, teamId: number, jobId: number) =>
  db
    .selectFrom('jobs')
    .select(['id', 'project_id', 'state'])
    .where('team_id', '=', teamId)
    .where('id', '=', jobId)
    .executeTakeFirst();

/** Whether a job's destination is still there to retry to (an FTP server deleted or taken off the project is not). */
export const destinationLive = sql<boolean>`case
  when j.dest_project_id is not null then true
  when j.ftp_server_id is null then false
  else exists (select 1 from project_ftp_servers pf where pf.project_id = j.project_id and pf.ftp_server_id = j.ftp_server_id)
end`;

export const pageJobs = (db: Db, projectId: number, limit: number, offset: number) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('uploads as u', 'u.id', 'j.upload_id')
    .select([
      'j.id',
      'j.upload_id',
      'u.path',
      sql<number>`coalesce(u.processed_size, u.size)`.as('filesize'),
      'j.ftpservername',
      'j.destprojectname',
      'j.state',
      'j.scheduletime',
      'j.createtime',
      'j.trynumber',
      'j.errortext',
      'j.uploadduration',
      'j.detail',
      'u.processing_detail',
      destinationLive.as('destination_live'),
    ])
    .where('j.project_id', '=', projectId)
    .orderBy('j.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

/** The tries of these jobs, oldest first (the protocol tab's job detail). */
export const triesOf = (db: Db, jobIds: number[]) =>
  jobIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('job_tries')
        .select(['job_id', 'started_at', 'duration_ms', 'bytes', 'error'])
        .where('job_id', 'in', jobIds)
        .orderBy('job_id')
        .orderBy('id')
        .execute();

export const countJobs = async (db: Db, projectId: number) =>
  (
    await db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
  ).n;

/**
 * A destination is failing while jobs to it wait for a retry (a try failed), or when its last
 * finished job failed; an FTP server deleted or taken off the project is not (its jobs say so).
 * The last error comes along, so that people see why without opening the job log.
 */
// Issue 28: a picture a script stopped fails all its deliveries; that is not the destinations'
// fault, so it neither makes them "failing" nor gives them its error.
const notScriptStopped = sql<boolean>`coalesce(u.state, '') <> 'failed'`;
const failingColumns = [
  sql<number>`(count(*) filter (where j.state in ('scheduled', 'running') and j.trynumber > 0))::int`.as(
    'retryingjobcount',
  ),
  sql<string | null>`(array_agg(j.errortext order by j.id desc)
    filter (where j.errortext is not null and j.state in ('scheduled', 'running', 'failed') and ${notScriptStopped}))[1]`.as(
    'lasterror',
  ),
  sql<boolean>`coalesce(bool_or(j.state in ('scheduled', 'running') and j.trynumber > 0), false)
    or coalesce((array_agg(j.state order by coalesce(j.finished_at, j.createtime) desc, j.id desc)
      filter (where j.state in ('succeeded', 'failed') and not coalesce(j.detail ? 'destinationGone', false) and ${notScriptStopped}))[1] = 'failed', false)`.as(
    'failing',
  ),
] as const;

/** Per project and destination: all jobs, failed and retrying ones (the dashboard table). */
export const summary = (db: Db, teamId: number) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('projects as p', 'p.id', 'j.project_id')
    .leftJoin('uploads as u', 'u.id', 'j.upload_id')
    .select([
      'p.id as projectid',
      'p.name as project',
      'p.folder_id',
      sql<string>`coalesce(j.ftpservername, j.destprojectname, '')`.as('ftpserver'),
      sql<
        'ftpserver' | 'project'
      >`case when j.dest_project_id is null then 'ftpserver' else 'project' end`.as('destination'),
      sql<number>`count(*)::int`.as('jobcount'),
      sql<number>`(count(*) filter (where j.state = 'failed'))::int`.as('failedjobcount'),
      sql<number>`(count(*) filter (where j.state = 'held'))::int`.as('heldjobcount'),
      sql<number>`(count(*) filter (where u.processing_detail -> 'metadata' ->> 'error' is not null and j.state <> 'held'))::int`.as(
        'unstampedjobcount',
      ),
      ...failingColumns,
    ])
    .where('j.team_id', '=', teamId)
    .groupBy([
      'p.id',
      'p.name',
      'p.folder_id',
      sql`coalesce(j.ftpservername, j.destprojectname, '')`,
      sql`case when j.dest_project_id is null then 'ftpserver' else 'project' end`,
    ])
    .orderBy('p.name')
    .orderBy(sql`coalesce(j.ftpservername, j.destprojectname, '')`)
    .execute();
