// Issue 28: the job log one picture a row. A page of uploads (filtered through their jobs),
// the jobs of that page, and the destinations failing now with the pictures waiting for them.
import type { PictureFilter } from '@photorelay/contract/jobs';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { destinationLive } from './protocol-queries.ts';

const destinationName = sql<string>`coalesce(j.ftpservername, j.destprojectname, '')`;

/** What a job must be for its picture to match the state filter. */
const jobStateCondition: Record<
  Exclude<PictureFilter['state'], 'unstamped' | undefined>,
  RawBuilder<boolean>
> = {
  failed: sql<boolean>`j.state = 'failed'`,
  retrying: sql<boolean>`j.state in ('scheduled', 'running') and j.trynumber > 0`,
  waiting: sql<boolean>`j.state in ('scheduled', 'running', 'held')`,
  delivered: sql<boolean>`j.state = 'succeeded'`,
};

/** Filters a job's state can answer from the open-jobs index (few rows, however large the log). */
const openStates = new Set<PictureFilter['state']>(['failed', 'retrying', 'waiting']);

/**
 * `uploads u` narrowed by a filter (the project ids already checked readable). A state that only
 * open jobs have (failed, retrying, waiting) starts from those jobs (jobs_open_by_project: ~2,000
 * rows at 100,000 jobs) instead of testing every picture of the project (bench/job-log).
 */
function pictureSource(teamId: number, projectIds: number[], f: PictureFilter) {
  const parts: RawBuilder<unknown>[] = [
    sql`u.team_id = ${teamId}`,
    // One project (the project page's log) as an equality, so uploads_project_id yields its
    // pictures newest first; `= any(array)` reads them in id order across all projects.
    projectIds.length === 1
      ? sql`u.project_id = ${projectIds[0]}`
      : sql`u.project_id = any(${projectIds}::integer[])`,
  ];
  if (f.from) parts.push(sql`u.received_at >= ${new Date(f.from)}`);
  if (f.to) parts.push(sql`u.received_at < ${new Date(f.to)}`);
  if (f.search) parts.push(sql`u.filename ilike ${`%${f.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  if (f.state === 'unstamped') parts.push(sql`u.processing_detail -> 'metadata' ->> 'error' is not null`);
  const jobParts: RawBuilder<unknown>[] = [];
  if (f.destination) jobParts.push(sql`${destinationName} = ${f.destination}`);
  if (f.state && f.state !== 'unstamped') jobParts.push(jobStateCondition[f.state]);
  const where = sql.join(parts, sql` and `);
  const openJobs = sql`jobs j
      where j.project_id = any(${projectIds}::integer[]) and j.state in ('failed', 'scheduled', 'running', 'held')
        and ${sql.join(jobParts, sql` and `)}`;
  // Nothing to ask of the picture itself: its id is the job's upload_id (a job is in its
  // picture's project), so the page needs no look-up per matching picture (30 ms on PGlite for
  // 1,167 failed pictures, bench/job-log).
  if (f.state && openStates.has(f.state) && parts.length === 2)
    return sql`(select distinct j.upload_id as id from ${openJobs}) u`;
  if (f.state && openStates.has(f.state))
    return sql`uploads u join (
      select distinct j.upload_id from ${openJobs}
    ) o on o.upload_id = u.id where ${where}`;
  if (jobParts.length > 0)
    return sql`uploads u where ${where}
      and exists (select 1 from jobs j where j.upload_id = u.id and ${sql.join(jobParts, sql` and `)})`;
  return sql`uploads u where ${where}`;
}

/**
 * The count stops here: past it the log says "more than 1,000" (an exact count scanned every
 * picture; counting to 10,000 took 200 ms on PGlite for "delivered to X", bench/job-log).
 */
export const countCap = 1_000;

export const pagePictures = (
  db: Db,
  teamId: number,
  projectIds: number[],
  f: PictureFilter,
  limit: number,
  offset: number,
) =>
  sql<{
    id: number;
    project_id: number;
    project: string;
    filename: string;
    filesize: number | string;
    received_at: Date;
    state: string;
    duplicate_of: number | null;
    processing_detail: unknown;
  }>`
    with page as (
      select u.id from ${pictureSource(teamId, projectIds, f)}
      order by u.id desc limit ${limit} offset ${offset}
    )
    select u.id, u.project_id, p.name as project, u.filename, coalesce(u.processed_size, u.size) as filesize,
           u.received_at, u.state, u.duplicate_of, u.processing_detail
    from page join uploads u on u.id = page.id join projects p on p.id = u.project_id
    order by u.id desc
  `
    .execute(db)
    .then((r) => r.rows);

/** How many pictures match, up to countCap + 1. */
export const countPictures = async (db: Db, teamId: number, projectIds: number[], f: PictureFilter) =>
  (
    await sql<{ n: number }>`
      select count(*)::int as n from (select 1 from ${pictureSource(teamId, projectIds, f)} limit ${countCap + 1}) m
    `.execute(db)
  ).rows[0]?.n ?? 0;

/** The deliveries of these pictures, in the order their destinations were added. */
export const jobsOfUploads = (db: Db, uploadIds: number[]) =>
  uploadIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('jobs as j')
        .select([
          'j.id',
          'j.upload_id',
          'j.ftpservername',
          'j.destprojectname',
          'j.state',
          'j.trynumber',
          'j.scheduletime',
          'j.uploadduration',
          'j.errortext',
          destinationLive.as('destination_live'),
        ])
        .where('j.upload_id', 'in', uploadIds)
        .orderBy('j.upload_id')
        .orderBy('j.id')
        .execute();

/**
 * The destinations failing now in these projects: jobs to them wait for a retry, or failed with
 * no delivery to them succeeding since. Pictures a script stopped are not the destination's
 * fault and do not count; destinations deleted or removed say so in their jobs instead.
 */
export const failingDestinations = (db: Db, projectIds: number[]) =>
  sql<{
    project_id: number;
    name: string;
    kind: 'ftpserver' | 'project';
    waiting: number;
    lasterror: string;
  }>`
    with open as (
      select j.id, j.project_id, ${destinationName} as name,
             case when j.dest_project_id is null then 'ftpserver' else 'project' end as kind,
             j.upload_id, j.state, j.trynumber, j.errortext, coalesce(j.finished_at, j.scheduletime) as at
      from jobs j
      where j.project_id = any(${projectIds}::integer[])
        and (j.state = 'failed' or (j.state in ('scheduled', 'running') and j.trynumber > 0))
        and j.errortext is not null
        and not coalesce(j.detail ? 'destinationGone', false)
        -- The few stopped pictures (from uploads_pending), not a look-up per open job: that
        -- join cost 40 ms of the log's every page on PGlite at 2,500 open jobs (bench/job-log).
        and not exists (select 1 from uploads f where f.id = j.upload_id and f.state = 'failed')
    ), grouped as (
      select project_id, name, kind, count(distinct upload_id)::int as waiting,
             (array_agg(errortext order by id desc))[1] as lasterror,
             bool_or(state <> 'failed') as retrying, max(at) filter (where state = 'failed') as lastfailed
      from open group by project_id, name, kind
    )
    select g.project_id, g.name, g.kind, g.waiting, g.lasterror from grouped g
    where g.retrying or not exists (
      select 1 from jobs s
      where s.project_id = g.project_id and s.state = 'succeeded' and s.finished_at > g.lastfailed
        and coalesce(s.ftpservername, s.destprojectname, '') = g.name
    )
    order by g.waiting desc, g.name
  `
    .execute(db)
    .then((r) => r.rows);

/** The destinations of these projects, to filter by and send to (linked now or in a job). */
export const destinationsOfProjects = (db: Db, projectIds: number[]) =>
  sql<{ name: string; kind: 'ftpserver' | 'project' }>`
    select s.name, 'ftpserver' as kind from project_ftp_servers pf join ftp_servers s on s.id = pf.ftp_server_id
    where pf.project_id = any(${projectIds}::integer[])
    union
    select p.name, 'project' from project_destination_projects d join projects p on p.id = d.destination_project_id
    where d.project_id = any(${projectIds}::integer[])
    order by 1
  `
    .execute(db)
    .then((r) => r.rows);
