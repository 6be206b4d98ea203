import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { destinationLive } from '../modules/jobs/protocol-queries.ts';

// What a person asks of jobs already made: retry now, retry all failed, send a picture again.
// The worker's own claims, leases and results are in queue.ts.

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

/**
 * Issue 28 "Retry all failed": the failed deliveries and those waiting for a retry, of some
 * projects, optionally of one destination or only the chosen jobs, go again at once; pictures
 * a script stopped are processed again (with the scripts as they are now). The number retried.
 */
export async function retryFailedJobs(
  db: Db,
  teamId: number,
  scope: { projectIds: number[]; destination: string | null; jobIds: number[] | null },
) {
  const result = await sql<{ n: number }>`
    with job as (
      update jobs j set state = 'scheduled', scheduletime = now(), finished_at = null
      where j.team_id = ${teamId} and j.project_id = any(${scope.projectIds}::integer[])
        and (j.state = 'failed' or (j.state = 'scheduled' and j.trynumber > 0))
        and ${destinationLive}
        and (${scope.destination}::text is null or coalesce(j.ftpservername, j.destprojectname, '') = ${scope.destination}::text)
        and (${scope.jobIds}::integer[] is null or j.id = any(${scope.jobIds}::integer[]))
      returning j.id, j.upload_id
    ), reprocess as (
      update uploads set state = 'received' where id in (select upload_id from job) and state = 'failed'
    )
    select count(*)::int as n from job
  `.execute(db);
  return result.rows[0]?.n ?? 0;
}

/**
 * Issue 28 "Send again": a finished picture is processed again (the metadata and scripts as
 * they are now) and delivered to the project's destinations of these names (all when null),
 * a destination added since included. Refused (undefined) while a delivery of it is still
 * waiting or running, or for a camera's re-send of a file (it points to its twin). Returns the
 * number of deliveries and the blobs the old processing made (the caller removes them).
 */
export async function sendAgain(db: Db, teamId: number, uploadId: number, names: string[] | null) {
  const result = await sql<{
    jobs: number;
    processed_blob_key: string | null;
    thumbnail_blob_key: string | null;
    preview_blob_key: string | null;
    blob_key: string;
  }>`
    with up as (
      select u.id, u.team_id, u.project_id, u.chain, u.blob_key, u.processed_blob_key, u.thumbnail_blob_key, u.preview_blob_key
      from uploads u
      where u.id = ${uploadId} and u.team_id = ${teamId} and u.state in ('processed', 'failed') and u.duplicate_of is null
        and not exists (select 1 from jobs j where j.upload_id = u.id and j.state in ('scheduled', 'running'))
      for update
    ), destinations as (
      select s.id as ftp_server_id, null::integer as dest_project_id, s.name as ftpservername, null::text as destprojectname
      from up join project_ftp_servers pf on pf.project_id = up.project_id and pf.enabled
      join ftp_servers s on s.id = pf.ftp_server_id
      where ${names}::text[] is null or s.name = any(${names}::text[])
      union all
      select null, p.id, null, p.name
      from up join project_destination_projects d on d.project_id = up.project_id and d.enabled
      join projects p on p.id = d.destination_project_id
      where p.id <> all(up.chain) and (${names}::text[] is null or p.name = any(${names}::text[]))
    ), reset as (
      update jobs j set state = 'scheduled', scheduletime = now(), trynumber = 0, errortext = null,
        finished_at = null, uploadduration = null, detail = null, locked_until = null, locked_by = null
      from destinations d
      where j.upload_id = (select id from up)
        and (j.ftp_server_id = d.ftp_server_id or j.dest_project_id = d.dest_project_id)
      returning j.id
    ), added as (
      insert into jobs (team_id, upload_id, project_id, ftp_server_id, dest_project_id, ftpservername, destprojectname, state)
      select up.team_id, up.id, up.project_id, d.ftp_server_id, d.dest_project_id, d.ftpservername, d.destprojectname, 'scheduled'
      from up cross join destinations d
      where not exists (
        select 1 from jobs j where j.upload_id = up.id
          and (j.ftp_server_id = d.ftp_server_id or j.dest_project_id = d.dest_project_id)
      )
      returning id
    ), reprocess as (
      update uploads u set state = 'received', locked_until = null, processed_blob_key = null, processed_size = null,
        processed_sha256 = null, processed_filename = null, thumbnail_blob_key = null, preview_blob_key = null
      from up where u.id = up.id and exists (select 1 from destinations)
    )
    select ((select count(*) from reset) + (select count(*) from added))::int as jobs,
           up.processed_blob_key, up.thumbnail_blob_key, up.preview_blob_key, up.blob_key
    from up
  `.execute(db);
  return result.rows[0];
}
