import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

export const findFtpServer = (db: Db, teamId: number, id: number) =>
  db
    .selectFrom('ftp_servers')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();

export const listFtpServers = (db: Db, teamId: number) =>
  db.selectFrom('ftp_servers').selectAll().where('team_id', '=', teamId).orderBy('name').execute();

export interface FtpServerValues {
  name: string;
  host: string;
  port: number | null;
  path: string;
  protocol: 'ftp' | 'ftps' | 'sftp';
  username: string;
  max_connections: number;
}

export const insertFtpServer = (
  db: Db,
  teamId: number,
  folderId: number,
  values: FtpServerValues,
  passwordEnc: string,
) =>
  db
    .insertInto('ftp_servers')
    .values({ team_id: teamId, folder_id: folderId, ...values, password_enc: passwordEnc })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateFtpServer = (
  db: Db,
  teamId: number,
  id: number,
  values: Partial<FtpServerValues> & { password_enc?: string },
) => db.updateTable('ftp_servers').set(values).where('team_id', '=', teamId).where('id', '=', id).execute();

export const deleteFtpServer = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('ftp_servers').where('team_id', '=', teamId).where('id', '=', id).execute();

/**
 * Issue 28: each server's newest finished delivery, what waits for it and its projects, with
 * index probes per server (jobs_server_finished, jobs_open_by_server), not a scan of the log.
 */
export const ftpServerHealth = (db: Db, teamId: number) =>
  sql<{
    id: number;
    name: string;
    folder_id: number;
    last_at: Date | null;
    last_state: 'succeeded' | 'failed' | null;
    last_error: string | null;
    waiting: number;
    retrying: number;
    open_error: string | null;
    projects: string[] | null;
  }>`
    select s.id, s.name, s.folder_id, last.finished_at as last_at, last.state as last_state, last.errortext as last_error,
           coalesce(open.waiting, 0) as waiting, coalesce(open.retrying, 0) as retrying, open.error as open_error,
           (select array_agg(p.name order by p.name) from project_ftp_servers pf join projects p on p.id = pf.project_id
            where pf.ftp_server_id = s.id) as projects
    from ftp_servers s
    left join lateral (
      select j.finished_at, j.state, j.errortext from jobs j
      where j.ftp_server_id = s.id and j.finished_at is not null and j.state in ('succeeded', 'failed')
        and not coalesce(j.detail ? 'destinationGone', false)
        and not exists (select 1 from uploads u where u.id = j.upload_id and u.state = 'failed')
      order by j.finished_at desc limit 1
    ) last on true
    left join lateral (
      select count(distinct j.upload_id)::int as waiting,
             (count(*) filter (where j.trynumber > 0 and j.state <> 'held'))::int as retrying,
             (array_agg(j.errortext order by j.id desc) filter (where j.errortext is not null))[1] as error
      from jobs j where j.ftp_server_id = s.id and j.state in ('scheduled', 'running', 'held')
    ) open on true
    where s.team_id = ${teamId}
    order by s.name
  `
    .execute(db)
    .then((r) => r.rows);
