import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { destinationLive } from './protocol-queries.ts';

export interface NewUpload {
  projectId: number;
  path: string;
  size: number;
  sha256: string;
  blobKey: string;
  protocol: string;
  remoteAddress: string | null;
  /** Projects this file went through, this one included (project-to-project delivery). */
  chain: number[];
  sourceUploadId: number | null;
}

/**
 * Records an upload in one statement: the row (with the project's team), the project's incoming
 * counters, and one job per enabled destination that is not in the chain. The same file (name,
 * content) in the same project within a day is a camera re-sending it: the upload points to its
 * twin and the jobs are 'duplicate', finished at once. No row when the project is gone.
 * A re-send after the processing changed (template values or modes, a project or folder script,
 * the destination set: the fingerprint) is no duplicate: it is processed and delivered again.
 */
export async function insertUploadWithJobs(db: Db, u: NewUpload) {
  const result = await sql<{ id: number; duplicate_of: number | null; jobs: number }>`
    with recursive project as (
      select id, team_id, folder_id, hold_unstampable from projects where id = ${u.projectId}
    ), folder_chain as (
      select f.id, f.parent_id from folders f join project p on f.id = p.folder_id
      union all
      select f.id, f.parent_id from folders f join folder_chain c on f.id = c.parent_id
    ), fingerprint as (
      select md5(concat_ws(E'\n',
        (select coalesce(string_agg(concat_ws(chr(31), v.propertytypeids, v.position, v.lang, v.value), chr(30)
                                    order by v.propertytypeids, v.position, v.lang), '')
         from project_xmp_values v where v.project_id = ${u.projectId}),
        (select coalesce(string_agg(m.property_id || '=' || m.mode, ',' order by m.property_id), '')
         from project_xmp_modes m where m.project_id = ${u.projectId}),
        (select coalesce(string_agg(concat_ws(chr(31), s.project_id, s.folder_id, s.filename, s.source), chr(30)
                                    order by s.id), '')
         from scripts s
         where s.project_id = ${u.projectId} or s.folder_id in (select id from folder_chain)),
        (select coalesce(string_agg(pf.ftp_server_id || ':' || coalesce(pf.path, ''), ',' order by pf.ftp_server_id), '')
         from project_ftp_servers pf where pf.project_id = ${u.projectId} and pf.enabled),
        (select coalesce(string_agg(pd.destination_project_id::text, ',' order by pd.destination_project_id), '')
         from project_destination_projects pd where pd.project_id = ${u.projectId} and pd.enabled),
        (select hold_unstampable::text from project)
      )) as value
    ), twin as (
      select id from uploads
      where project_id = ${u.projectId} and path = ${u.path} and sha256 = ${u.sha256}
        and duplicate_of is null and received_at > now() - interval '1 day'
        and processing_fingerprint = (select value from fingerprint)
      order by id desc limit 1
    ), upload as (
      insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, protocol,
                           remote_address, chain, source_upload_id, duplicate_of, processing_fingerprint)
      select team_id, id, ${u.path}, ${u.path.split('/').pop() ?? u.path}, ${u.size}, ${u.sha256}, ${u.blobKey},
             ${u.protocol}, ${u.remoteAddress}, ${u.chain}::integer[], ${u.sourceUploadId}, (select id from twin),
             (select value from fingerprint)
      from project
      returning id, team_id, duplicate_of
    ), counted as (
      update projects set fileincount = fileincount + 1, bytesreceived = bytesreceived + ${u.size}
      where id in (select id from project)
    ), destinations as (
      select s.id as ftp_server_id, null::integer as dest_project_id, s.name as ftpservername, null::text as destprojectname
      from project_ftp_servers pf join ftp_servers s on s.id = pf.ftp_server_id
      where pf.project_id = ${u.projectId} and pf.enabled
      union all
      select null, p.id, null, p.name
      from project_destination_projects d join projects p on p.id = d.destination_project_id
      where d.project_id = ${u.projectId} and d.enabled and p.id <> all(${u.chain}::integer[])
    ), queued as (
      insert into jobs (team_id, upload_id, project_id, ftp_server_id, dest_project_id, ftpservername,
                        destprojectname, state, detail, finished_at)
      select up.team_id, up.id, ${u.projectId}, d.ftp_server_id, d.dest_project_id, d.ftpservername, d.destprojectname,
             case when up.duplicate_of is null then 'scheduled' else 'duplicate' end,
             case when up.duplicate_of is null then null else jsonb_build_object('duplicateOf', up.duplicate_of) end,
             case when up.duplicate_of is null then null else now() end
      from upload up cross join destinations d
      returning id
    )
    select id, duplicate_of, (select count(*) from queued)::integer as jobs from upload
  `.execute(db);
  return result.rows[0];
}

/** Leases the next upload to process (new, or one whose processor died). */
export async function claimUploadToProcess(db: Db, leaseSeconds: number) {
  const result = await sql<{
    id: number;
    project_id: number;
    team_id: number;
    path: string;
    blob_key: string;
    size: number;
    sha256: string;
  }>`
    update uploads set state = 'processing', locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id = (
      select id from uploads
      where state = 'received' or (state = 'processing' and locked_until < now())
      order by id limit 1 for update skip locked
    )
    returning id, project_id, team_id, path, blob_key, size, sha256
  `.execute(db);
  return result.rows[0];
}

/** Keeps an upload's processing lease while the metadata and script steps run. */
export const extendUploadLease = (db: Db, id: number, leaseSeconds: number) =>
  sql`update uploads set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${id} and state = 'processing'`.execute(db);

export const markProcessed = (
  db: Db,
  id: number,
  file: { blobKey: string; size: number; sha256: string; detail: unknown; filename?: string },
) =>
  db
    .updateTable('uploads')
    .set({
      state: 'processed',
      processed_blob_key: file.blobKey,
      processed_size: file.size,
      processed_sha256: file.sha256,
      processed_filename: file.filename ?? null,
      processing_detail: JSON.stringify(file.detail),
      locked_until: null,
    })
    .where('id', '=', id)
    .execute();

export interface ClaimedJob {
  id: number;
  team_id: number;
  project_id: number;
  upload_id: number;
  ftp_server_id: number | null;
  dest_project_id: number | null;
  /** The destination's name when the job was made (for the give-up mail). */
  ftpservername: string | null;
  destprojectname: string | null;
  trynumber: number;
  path: string;
  filename: string;
  chain: number[];
  blob_key: string;
  processed_blob_key: string;
  processed_size: number;
  processed_sha256: string;
  /** An FTP server job's server as it is now: null once the server was deleted. */
  server: ServerDestination | null;
}

export interface ServerDestination {
  id: number;
  protocol: 'ftp' | 'ftps' | 'sftp';
  host: string;
  port: number | null;
  username: string;
  password_enc: string;
  path: string;
  max_connections: number;
  /** False once the server was removed from the job's project. */
  linked: boolean;
  /** The project's own path on this server, else null. */
  override_path: string | null;
}

/**
 * Leases the next due job of a processed upload; a job whose worker died is due again when its
 * lease ran out. It reads each waiting project's oldest due job (an index probe per project),
 * not every due job, so a backlog of thousands costs a claim no more than a few (bench/claim).
 * Two rules keep one burst from holding up everybody else:
 * - the project with the fewest deliveries running goes first, and within a project the oldest
 *   job: one camera's 500 pictures do not make another team's one picture wait behind them all;
 * - a job whose FTP server already has its `max_connections` deliveries running (counted over
 *   all workers) waits, instead of holding a worker slot until a connection frees up.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  leaseSeconds: number,
): Promise<ClaimedJob | undefined> {
  const result = await sql<ClaimedJob>`
    with recursive running as (
      select project_id, ftp_server_id from jobs where state = 'running' and locked_until >= now()
    ), by_project as (
      select project_id, count(*) as n from running group by project_id
    ), by_server as (
      select ftp_server_id, count(*) as n from running where ftp_server_id is not null group by ftp_server_id
    ), projects_waiting as (
      -- The projects with jobs scheduled or running, one index probe each (a skip scan).
      (select project_id from jobs where state in ('scheduled', 'running') order by project_id limit 1)
      union all
      select (select j.project_id from jobs j
              where j.state in ('scheduled', 'running') and j.project_id > p.project_id
              order by j.project_id limit 1)
      from projects_waiting p where p.project_id is not null
    ), candidates as (
      -- Each project's oldest job that may run now.
      select p.project_id, c.id, c.scheduletime from projects_waiting p
      cross join lateral (
        select j.id, j.scheduletime from jobs j
        join uploads u on u.id = j.upload_id
        left join ftp_servers s on s.id = j.ftp_server_id
        left join by_server bs on bs.ftp_server_id = j.ftp_server_id
        where j.project_id = p.project_id and j.state in ('scheduled', 'running') and u.state = 'processed'
          and ((j.state = 'scheduled' and j.scheduletime <= now()) or (j.state = 'running' and j.locked_until < now()))
          and (s.id is null or coalesce(bs.n, 0) < s.max_connections)
        order by j.scheduletime, j.id
        limit 1 for update of j skip locked
      ) c
      where p.project_id is not null
    ), next as (
      select c.id from candidates c
      left join by_project bp on bp.project_id = c.project_id
      order by coalesce(bp.n, 0), c.scheduletime, c.id
      limit 1
    ), claimed as (
      update jobs j set state = 'running', locked_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = ${workerId}
      from next, uploads u
      where j.id = next.id and u.id = j.upload_id
      returning j.id, j.team_id, j.project_id, j.upload_id, j.ftp_server_id, j.dest_project_id, j.ftpservername, j.destprojectname, j.trynumber,
                u.path, coalesce(u.processed_filename, u.filename) as filename, u.chain, u.blob_key, u.processed_blob_key, u.processed_size, u.processed_sha256
    )
    -- What the delivery needs of its server comes along: one round trip less per job.
    select c.*, case when s.id is null then null else json_build_object(
             'id', s.id, 'protocol', s.protocol, 'host', s.host, 'port', s.port, 'username', s.username,
             'password_enc', s.password_enc, 'path', s.path, 'max_connections', s.max_connections,
             'linked', pf.project_id is not null, 'override_path', pf.path) end as server
    from claimed c
    left join ftp_servers s on s.id = c.ftp_server_id
    left join project_ftp_servers pf on pf.ftp_server_id = c.ftp_server_id and pf.project_id = c.project_id
  `.execute(db);
  return result.rows[0];
}

export const extendLease = (db: Db, jobId: number, workerId: string, leaseSeconds: number) =>
  sql`update jobs set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${jobId} and state = 'running' and locked_by = ${workerId}`.execute(db);

/**
 * Finishes a job this worker holds and counts the file as sent by its project, in one
 * statement. False when the lease was lost (another worker has the job now).
 */
export async function markJobSucceeded(
  db: Db,
  job: { id: number; project_id: number; processed_size: number },
  workerId: string,
  durationMs: number,
  detail: unknown,
): Promise<boolean> {
  const result = await sql<{ id: number }>`
    with done as (
      update jobs set state = 'succeeded', uploadduration = ${durationMs}, finished_at = now(),
        locked_until = null, errortext = null, detail = ${JSON.stringify(detail)}
      where id = ${job.id} and locked_by = ${workerId} and state = 'running'
      returning id
    ), counted as (
      update projects set fileoutcount = fileoutcount + 1, bytessent = bytessent + ${Number(job.processed_size)}
      where id = ${job.project_id} and exists (select 1 from done)
    )
    select id from done
  `.execute(db);
  return result.rows.length > 0;
}

export const markJobFailedTry = (
  db: Db,
  jobId: number,
  workerId: string,
  change: { state: 'scheduled' | 'failed'; trynumber: number; errortext: string; retryInSeconds: number },
) =>
  db
    .updateTable('jobs')
    .set({
      state: change.state,
      trynumber: change.trynumber,
      errortext: change.errortext,
      scheduletime: sql<Date>`now() + make_interval(secs => ${change.retryInSeconds})`,
      finished_at: change.state === 'failed' ? new Date() : null,
      locked_until: null,
    })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();

/**
 * "Retry now": a failed or waiting job goes again at once; a 'held' one (a picture that could not
 * be stamped) is released to go out as it came; an upload a script error stopped ('failed') is
 * processed again, with the scripts as they are now.
 */
export async function retryNow(db: Db, teamId: number, jobId: number) {
  const result = await sql<{ id: number }>`
    with job as (
      update jobs j set state = 'scheduled', scheduletime = now(), finished_at = null
      where j.team_id = ${teamId} and j.id = ${jobId} and j.state in ('failed', 'scheduled', 'held')
        and ${destinationLive}
      returning j.id, j.upload_id
    ), reprocess as (
      update uploads set state = 'received' where id in (select upload_id from job) and state = 'failed'
    )
    select id from job
  `.execute(db);
  return { numUpdatedRows: BigInt(result.rows.length) };
}

/** Finished uploads older than the retention period, with their blobs. */
export const listExpiredUploads = (db: Db, before: Date, limit: number) =>
  db
    .selectFrom('uploads as u')
    .select(['u.id', 'u.blob_key', 'u.processed_blob_key', 'u.thumbnail_blob_key', 'u.preview_blob_key'])
    .where('u.received_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.id')
            .whereRef('jobs.upload_id', '=', 'u.id')
            .where('jobs.state', 'in', ['scheduled', 'running']),
        ),
      ),
    )
    .limit(limit)
    .execute();

export const deleteUploads = (db: Db, ids: number[]) =>
  db.deleteFrom('uploads').where('id', 'in', ids).execute();

/**
 * Takes the right to mail about a destination's failures: true at most once per project,
 * destination and hour.
 */
export async function claimFailureNotice(db: Db, projectId: number, destination: string): Promise<boolean> {
  const claimed = await sql<{ project_id: number }>`
    insert into failure_notices (project_id, destination, sent_at) values (${projectId}, ${destination}, now())
    on conflict (project_id, destination) do update set sent_at = now()
    where failure_notices.sent_at < now() - interval '1 hour'
    returning project_id
  `.execute(db);
  return claimed.rows.length > 0;
}

export const findProjectName = (db: Db, projectId: number) =>
  db.selectFrom('projects').select('name').where('id', '=', projectId).executeTakeFirstOrThrow();

/** Owners and operators (groups with all permissions) with a verified address. */
export const listNotifiedMembers = (db: Db, teamId: number) =>
  db
    .selectFrom('team_members as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.language'])
    .where('m.team_id', '=', teamId)
    .where('g.has_all_permissions', '=', true)
    .where('u.email_verified', '=', true)
    .execute();

/** Jobs of the project to the same destination as `job` that failed for good in the last hour. */
export const listRecentlyFailed = (db: Db, job: ClaimedJob) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('uploads as u', 'u.id', 'j.upload_id')
    .select(['u.path', 'j.ftpservername', 'j.destprojectname'])
    .where('j.project_id', '=', job.project_id)
    .where('j.state', '=', 'failed')
    .where(
      job.ftp_server_id ? 'j.ftp_server_id' : 'j.dest_project_id',
      '=',
      job.ftp_server_id ?? job.dest_project_id ?? -1,
    )
    .where('j.finished_at', '>', sql<Date>`now() - interval '1 hour'`)
    .orderBy('j.id')
    .limit(200)
    .execute();
