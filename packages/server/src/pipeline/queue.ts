import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { UploadToProcess } from './processing.ts';

/**
 * Leases the next upload to process (new, or one whose processor died). Fair across teams, as
 * the job claim is across projects: the team with the fewest uploads in processing goes first,
 * oldest first within a team; `busyTeams` (those at their share of this worker's slots) get
 * none, and a project whose script keeps hitting the sandbox's hard stop waits out its backoff
 * (modules/scripts noteScriptHardStop). Before, uploads went strictly by id: one team's 20
 * pictures held every slot and another team's waited 30-47 s (issue 25).
 */
export async function claimUploadToProcess(
  db: Db,
  leaseSeconds: number,
  busyTeams: readonly number[] = [],
): Promise<(UploadToProcess & { moreWaiting: boolean }) | undefined> {
  const notBusy = busyTeams.length > 0 ? sql`t.team_id not in (${sql.join([...busyTeams])})` : sql`true`;
  const result = await sql<{
    id: number;
    project_id: number;
    team_id: number;
    path: string;
    blob_key: string;
    size: number;
    sha256: string;
    more: boolean;
  }>`
    with recursive processing as (
      select team_id, count(*) as n from uploads
      where state = 'processing' and locked_until >= now()
      group by team_id
    ), teams_waiting as (
      -- The teams with uploads waiting or in processing, one index probe each (a skip scan).
      (select team_id from uploads where state in ('received', 'processing') order by team_id limit 1)
      union all
      select (select u.team_id from uploads u
              where u.state in ('received', 'processing') and u.team_id > t.team_id
              order by u.team_id limit 1)
      from teams_waiting t where t.team_id is not null
    ), candidates as (
      -- Each team's oldest upload that may be processed now.
      select t.team_id, c.id from teams_waiting t
      cross join lateral (
        select u.id from uploads u
        where u.team_id = t.team_id
          and (u.state = 'received' or (u.state = 'processing' and u.locked_until < now()))
          and not exists (select 1 from script_backoffs b where b.project_id = u.project_id and b.until > now())
        order by u.id
        limit 1 for update of u skip locked
      ) c
      where t.team_id is not null and ${notBusy}
    ), next as (
      select c.id from candidates c
      left join processing p on p.team_id = c.team_id
      order by coalesce(p.n, 0), c.id
      limit 1
    )
    update uploads set state = 'processing', locked_until = now() + make_interval(secs => ${leaseSeconds})
    from next where uploads.id = next.id
    returning uploads.id, uploads.project_id, uploads.team_id, uploads.path, uploads.blob_key, uploads.size, uploads.sha256,
      -- Another upload waiting (team shares and script back-offs aside)? See moreDue in claimJob.
      exists (select 1 from uploads w where w.state in ('received', 'processing') and w.id <> uploads.id
              and (w.state = 'received' or w.locked_until < now())) as more
  `.execute(db);
  const row = result.rows[0];
  return (
    row && {
      id: row.id,
      teamId: row.team_id,
      projectId: row.project_id,
      path: row.path,
      blobKey: row.blob_key,
      size: Number(row.size),
      sha256: row.sha256,
      moreWaiting: row.more,
    }
  );
}

/** Keeps an upload's processing lease while the metadata and script steps run. */
export const extendUploadLease = (db: Db, id: number, leaseSeconds: number) =>
  sql`update uploads set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${id} and state = 'processing'`.execute(db);

export const markProcessed = (
  db: Db,
  id: number,
  file: { blobKey: string; size: number; sha256: string | null; detail: unknown; filename?: string },
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

/**
 * Holds an upload's waiting deliveries (its file could not be stamped, or a variable had no
 * value); release is 'retry now'. Only with markProcessed, in one transaction (settleUpload).
 */
export const holdJobsOfUpload = (db: Db, uploadId: number) =>
  db
    .updateTable('jobs')
    .set({ state: 'held' })
    .where('upload_id', '=', uploadId)
    .where('state', '=', 'scheduled')
    .executeTakeFirst();

/** A leased delivery: the job, its upload's files and (for an FTP server job) its server. */
export interface ClaimedJob {
  id: number;
  teamId: number;
  projectId: number;
  uploadId: number;
  ftpServerId: number | null;
  destProjectId: number | null;
  /** The destination's name when the job was made (for the log and the give-up mail). */
  ftpServerName: string | null;
  destProjectName: string | null;
  tryNumber: number;
  path: string;
  filename: string;
  chain: number[];
  blobKey: string;
  processedBlobKey: string;
  processedSize: number;
  /** Null when a processing step wrote the file (delivery.ts reads the hash if it needs it). */
  processedSha256: string | null;
  /** An FTP server job's server as it is now: null once the server was deleted. */
  server: ServerDestination | null;
  /** Whether another job was due when this one was claimed (connection limits aside). */
  moreDue: boolean;
}

export interface ServerDestination {
  id: number;
  protocol: 'ftp' | 'ftps' | 'sftp';
  host: string;
  port: number | null;
  username: string;
  passwordEnc: string;
  path: string;
  maxConnections: number;
  /** False once the server was removed from the job's project. */
  linked: boolean;
  /** The project's own path on this server, else null. */
  overridePath: string | null;
}

/** claimJob's row as the database returns it. */
interface ClaimedJobRow {
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
  processed_size: number | string;
  processed_sha256: string | null;
  server: {
    id: number;
    protocol: 'ftp' | 'ftps' | 'sftp';
    host: string;
    port: number | null;
    username: string;
    password_enc: string;
    path: string;
    max_connections: number;
    linked: boolean;
    override_path: string | null;
  } | null;
  more: boolean;
}

const toClaimedJob = (r: ClaimedJobRow): ClaimedJob => ({
  id: r.id,
  teamId: r.team_id,
  projectId: r.project_id,
  uploadId: r.upload_id,
  ftpServerId: r.ftp_server_id,
  destProjectId: r.dest_project_id,
  ftpServerName: r.ftpservername,
  destProjectName: r.destprojectname,
  tryNumber: r.trynumber,
  path: r.path,
  filename: r.filename,
  chain: r.chain,
  blobKey: r.blob_key,
  processedBlobKey: r.processed_blob_key,
  processedSize: Number(r.processed_size),
  processedSha256: r.processed_sha256,
  server: r.server && {
    id: r.server.id,
    protocol: r.server.protocol,
    host: r.server.host,
    port: r.server.port,
    username: r.server.username,
    passwordEnc: r.server.password_enc,
    path: r.server.path,
    maxConnections: r.server.max_connections,
    linked: r.server.linked,
    overridePath: r.server.override_path,
  },
  moreDue: r.more,
});

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
  const result = await sql<ClaimedJobRow>`
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
             'linked', pf.project_id is not null, 'override_path', pf.path) end as server,
           -- Another job due now (connection limits aside; one being claimed beside us counts too)?
           -- Without one the worker claims again only when woken: no empty claim after each job.
           exists (select 1 from jobs j join uploads u on u.id = j.upload_id
                   where j.state in ('scheduled', 'running') and j.scheduletime <= now() and j.id <> c.id
                     and u.state = 'processed'
                     and (j.state = 'scheduled' or j.locked_until < now())) as more
    from claimed c
    left join ftp_servers s on s.id = c.ftp_server_id
    left join project_ftp_servers pf on pf.ftp_server_id = c.ftp_server_id and pf.project_id = c.project_id
  `.execute(db);
  const row = result.rows[0];
  return row && toClaimedJob(row);
}

export const extendLease = (db: Db, jobId: number, workerId: string, leaseSeconds: number) =>
  sql`update jobs set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${jobId} and state = 'running' and locked_by = ${workerId}`.execute(db);

/** One try of a job, for its history (issue 15). */
export interface TryRow {
  startedAt: Date;
  durationMs: number;
  bytes: number | null;
  error: string | null;
}

/** A try as job_tries stores it, inserted by the statement that also changes the job. */
const insertTry = (jobId: number, row: TryRow) => sql`
  insert into job_tries (job_id, started_at, duration_ms, bytes, error)
  values (${jobId}, ${row.startedAt}, ${row.durationMs}, ${row.bytes}, ${row.error === null ? null : row.error.slice(0, 2000)})`;

/**
 * Finishes a job this worker holds, counts the file as sent by its project and notes the try,
 * in one statement: a crash cannot leave a job "succeeded" without its try (issue 29). False when
 * the lease was lost (another worker has the job now); the try is noted all the same.
 */
export async function markJobSucceeded(
  db: Db,
  job: { id: number; projectId: number; processedSize: number },
  workerId: string,
  durationMs: number,
  detail: unknown,
  tryRow: TryRow,
): Promise<boolean> {
  const result = await sql<{ id: number }>`
    with done as (
      update jobs set state = 'succeeded', uploadduration = ${durationMs}, finished_at = now(),
        locked_until = null, errortext = null, detail = ${JSON.stringify(detail)}
      where id = ${job.id} and locked_by = ${workerId} and state = 'running'
      returning id
    ), counted as (
      update projects set fileoutcount = fileoutcount + 1, bytessent = bytessent + ${job.processedSize}
      where id = ${job.projectId} and exists (select 1 from done)
    ), tried as (${insertTry(job.id, tryRow)})
    select id from done
  `.execute(db);
  return result.rows.length > 0;
}

/** A failed try: the job waits for its next one (or fails for good), and the try is noted, in one statement. */
export const markJobFailedTry = (
  db: Db,
  jobId: number,
  workerId: string,
  change: { state: 'scheduled' | 'failed'; trynumber: number; errortext: string; retryInSeconds: number },
  tryRow: TryRow,
) =>
  sql`
    with failed as (
      update jobs set state = ${change.state}, trynumber = ${change.trynumber}, errortext = ${change.errortext},
        scheduletime = now() + make_interval(secs => ${change.retryInSeconds}),
        finished_at = ${change.state === 'failed' ? sql`now()` : null}, locked_until = null
      where id = ${jobId} and locked_by = ${workerId} and state = 'running'
    ), tried as (${insertTry(jobId, tryRow)})
    select 1
  `.execute(db);

/** Notes a try that changes nothing else (the first of two when a connection broke under it). */
export const recordTry = (db: Db, jobId: number, row: TryRow) => insertTry(jobId, row).execute(db);
