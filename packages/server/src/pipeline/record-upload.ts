import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { uploadBytesReceived, uploadsReceived } from '../observe/metrics.ts';

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

/**
 * Records an upload with its counters and one job per enabled destination in one statement, so
 * an acknowledged file always has its jobs. A re-sent file (same name and content within a day)
 * gets 'duplicate' jobs that are never sent. Undefined when the project no longer exists.
 */
export async function recordUpload(
  db: Db,
  upload: NewUpload,
): Promise<{ uploadId: number; duplicateOf: number | null; jobs: number } | undefined> {
  const chain = upload.chain.includes(upload.projectId) ? upload.chain : [...upload.chain, upload.projectId];
  const row = await insertUploadWithJobs(db, { ...upload, chain });
  if (row) {
    uploadsReceived.inc({ protocol: upload.protocol });
    uploadBytesReceived.inc({ protocol: upload.protocol }, upload.size);
  }
  return row && { uploadId: row.id, duplicateOf: row.duplicate_of, jobs: row.jobs };
}
