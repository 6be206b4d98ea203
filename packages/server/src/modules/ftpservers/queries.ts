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
