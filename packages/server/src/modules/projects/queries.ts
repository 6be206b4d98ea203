import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

export const findProject = (db: Db, teamId: number, id: number) =>
  db.selectFrom('projects').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const findProjectByUsername = (db: Db, username: string) =>
  db.selectFrom('projects').selectAll().where('ingest_username', '=', username).executeTakeFirst();

export const insertProject = (
  db: Db,
  p: { teamId: number; folderId: number; name: string; username: string; passwordEnc: string },
) =>
  db
    .insertInto('projects')
    .values({
      team_id: p.teamId,
      folder_id: p.folderId,
      name: p.name,
      ingest_username: p.username,
      ingest_password_enc: p.passwordEnc,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const renameProject = (db: Db, teamId: number, id: number, name: string) =>
  db.updateTable('projects').set({ name }).where('team_id', '=', teamId).where('id', '=', id).execute();

export const deleteProject = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('projects').where('team_id', '=', teamId).where('id', '=', id).execute();

export async function listProjectBlobKeys(db: Db, projectId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('uploads')
    .select(['blob_key', 'processed_blob_key', 'thumbnail_blob_key', 'preview_blob_key'])
    .where('project_id', '=', projectId)
    .execute();
  return [
    ...new Set(
      rows
        .flatMap((r) => [r.blob_key, r.processed_blob_key, r.thumbnail_blob_key, r.preview_blob_key])
        .filter((k): k is string => k !== null),
    ),
  ];
}

export const listTeamProjects = (db: Db, teamId: number) =>
  db
    .selectFrom('projects')
    .select(['id', 'name', 'folder_id'])
    .where('team_id', '=', teamId)
    .orderBy('name')
    .execute();

export const listTeamFtpServers = (db: Db, teamId: number) =>
  db
    .selectFrom('ftp_servers')
    .select(['id', 'name', 'folder_id'])
    .where('team_id', '=', teamId)
    .orderBy('name')
    .execute();

export const listProjectFtpServers = (db: Db, projectId: number) =>
  db
    .selectFrom('project_ftp_servers as pf')
    .innerJoin('ftp_servers as s', 's.id', 'pf.ftp_server_id')
    .select([
      's.id',
      's.name',
      's.protocol',
      's.host',
      's.path as defaultpath',
      'pf.path as overridepath',
      'pf.enabled',
      's.folder_id',
    ])
    .where('pf.project_id', '=', projectId)
    .orderBy('s.name')
    .execute();

export const listDestinationProjects = (db: Db, projectId: number) =>
  db
    .selectFrom('project_destination_projects as d')
    .innerJoin('projects as p', 'p.id', 'd.destination_project_id')
    .select(['p.id', 'p.name', 'd.enabled', 'p.folder_id'])
    .where('d.project_id', '=', projectId)
    .orderBy('p.name')
    .execute();

export const addFtpServer = (db: Db, projectId: number, ftpServerId: number) =>
  db
    .insertInto('project_ftp_servers')
    .values({ project_id: projectId, ftp_server_id: ftpServerId, path: null })
    .onConflict((oc) => oc.columns(['project_id', 'ftp_server_id']).doNothing())
    .execute();

export const removeFtpServer = (db: Db, projectId: number, ftpServerId: number) =>
  db
    .deleteFrom('project_ftp_servers')
    .where('project_id', '=', projectId)
    .where('ftp_server_id', '=', ftpServerId)
    .executeTakeFirst();

export const updateFtpServerLink = (
  db: Db,
  projectId: number,
  ftpServerId: number,
  change: { path?: string | null; enabled?: boolean },
) =>
  db
    .updateTable('project_ftp_servers')
    .set(change)
    .where('project_id', '=', projectId)
    .where('ftp_server_id', '=', ftpServerId)
    .executeTakeFirst();

export const addDestinationProject = (db: Db, projectId: number, destinationId: number) =>
  db
    .insertInto('project_destination_projects')
    .values({ project_id: projectId, destination_project_id: destinationId })
    .onConflict((oc) => oc.columns(['project_id', 'destination_project_id']).doNothing())
    .execute();

export const removeDestinationProject = (db: Db, projectId: number, destinationId: number) =>
  db
    .deleteFrom('project_destination_projects')
    .where('project_id', '=', projectId)
    .where('destination_project_id', '=', destinationId)
    .executeTakeFirst();

export const setDestinationProjectEnabled = (
  db: Db,
  projectId: number,
  destinationId: number,
  enabled: boolean,
) =>
  db
    .updateTable('project_destination_projects')
    .set({ enabled })
    .where('project_id', '=', projectId)
    .where('destination_project_id', '=', destinationId)
    .executeTakeFirst();

/**
 * Files and bytes in and out per hour or minute since `since`, for the chart on the overview tab
 * (read through the indexes of migration 0025).
 */
export async function trafficStats(db: Db, projectId: number, since: Date, unit: 'hour' | 'minute') {
  const result = await sql<{
    at: Date;
    files_in: number;
    bytes_in: number;
    files_out: number;
    bytes_out: number;
  }>`
    with incoming as (
      select date_trunc(${unit}, received_at) as at, count(*)::int as files, coalesce(sum(size), 0)::bigint as bytes
      from uploads where project_id = ${projectId} and received_at >= ${since} group by 1
    ), outgoing as (
      select date_trunc(${unit}, j.finished_at) as at, count(*)::int as files,
             coalesce(sum(coalesce(u.processed_size, u.size)), 0)::bigint as bytes
      from jobs j join uploads u on u.id = j.upload_id
      where j.project_id = ${projectId} and j.state = 'succeeded' and j.finished_at >= ${since} group by 1
    )
    select coalesce(i.at, o.at) as at, coalesce(i.files, 0) as files_in, coalesce(i.bytes, 0) as bytes_in,
           coalesce(o.files, 0) as files_out, coalesce(o.bytes, 0) as bytes_out
    from incoming i full outer join outgoing o on o.at = i.at
    order by 1
  `.execute(db);
  return result.rows;
}

export const listConnectionSessions = (db: Db, projectId: number, limit: number) =>
  db
    .selectFrom('ingest_sessions')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
