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

export const pageJobs = (db: Db, projectId: number, limit: number, offset: number) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('uploads as u', 'u.id', 'j.upload_id')
    .select([
      'j.id',
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

/** Per project and destination: all jobs and failed jobs (the dashboard table). */
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
