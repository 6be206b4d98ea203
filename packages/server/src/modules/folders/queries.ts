import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { FolderType, Permission } from '../../db/schema.ts';

export const listFolderParents = (db: Db, teamId: number) =>
  db.selectFrom('folders').select(['id', 'parent_id', 'type']).where('team_id', '=', teamId).execute();

/** Permission rows that concern one member: given to them or to their group. */
export const listMemberPermissions = (db: Db, teamId: number, userId: number, groupId: number) =>
  db
    .selectFrom('folder_permissions')
    .select(['folder_id', 'permissions'])
    .where('team_id', '=', teamId)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('group_id', '=', groupId)]))
    .execute();

export interface TreeRow {
  kind: 'folder' | 'project' | 'ftpserver' | 'calendar';
  id: number;
  parent_id: number | null;
  name: string;
  type: string | null;
}

/** The whole tree of a team in one query: folders and the items that live in them. */
export async function listTreeRows(db: Db, teamId: number): Promise<TreeRow[]> {
  const result = await sql<TreeRow>`
    select 'folder' as kind, id, parent_id, name, type from folders where team_id = ${teamId}
    union all select 'project', id, folder_id, name, null from projects where team_id = ${teamId}
    union all select 'ftpserver', id, folder_id, name, null from ftp_servers where team_id = ${teamId}
    union all select 'calendar', id, folder_id, name, type from calendars where team_id = ${teamId}
  `.execute(db);
  return result.rows;
}

/** Every permission row of a team with the user's e-mail or the group's name, for the tree and folder page. */
export const listTeamPermissions = (db: Db, teamId: number) =>
  db
    .selectFrom('folder_permissions as fp')
    .leftJoin('users as u', 'u.id', 'fp.user_id')
    .leftJoin('groups as g', 'g.id', 'fp.group_id')
    .select([
      'fp.folder_id',
      'fp.user_id',
      'fp.group_id',
      'fp.permissions',
      'u.email',
      'u.first_name',
      'u.last_name',
      'g.name as group_name',
    ])
    .where('fp.team_id', '=', teamId)
    .orderBy('u.email')
    .orderBy('g.name')
    .execute();

export const findFolder = (db: Db, teamId: number, id: number) =>
  db.selectFrom('folders').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

export const insertFolder = (
  db: Db,
  f: { teamId: number; parentId: number; type: FolderType; name: string },
) =>
  db
    .insertInto('folders')
    .values({ team_id: f.teamId, parent_id: f.parentId, type: f.type, name: f.name })
    .returning('id')
    .executeTakeFirstOrThrow();

export const renameFolder = (db: Db, teamId: number, id: number, name: string) =>
  db.updateTable('folders').set({ name }).where('team_id', '=', teamId).where('id', '=', id).execute();

export const setFolderParent = (db: Db, teamId: number, id: number, parentId: number) =>
  db
    .updateTable('folders')
    .set({ parent_id: parentId })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();

export const deleteFolder = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('folders').where('team_id', '=', teamId).where('id', '=', id).execute();

/** How many things live directly in a folder (sub-folders and items). */
export async function countFolderChildren(db: Db, teamId: number, id: number): Promise<number> {
  const result = await sql<{ n: number }>`
    select (select count(*) from folders where team_id = ${teamId} and parent_id = ${id})
         + (select count(*) from projects where team_id = ${teamId} and folder_id = ${id})
         + (select count(*) from ftp_servers where team_id = ${teamId} and folder_id = ${id})
         + (select count(*) from calendars where team_id = ${teamId} and folder_id = ${id}) as n
  `.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

export const findProjectFolder = (db: Db, teamId: number, projectId: number) =>
  db
    .selectFrom('projects')
    .select(['id', 'folder_id'])
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

export const findFtpServerFolder = (db: Db, teamId: number, id: number) =>
  db
    .selectFrom('ftp_servers')
    .select(['id', 'folder_id'])
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();

export const setProjectFolder = (db: Db, teamId: number, id: number, folderId: number) =>
  db
    .updateTable('projects')
    .set({ folder_id: folderId })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();

export const setFtpServerFolder = (db: Db, teamId: number, id: number, folderId: number) =>
  db
    .updateTable('ftp_servers')
    .set({ folder_id: folderId })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();

export async function upsertUserPermission(
  db: Db,
  teamId: number,
  folderId: number,
  userId: number,
  permissions: Permission[],
) {
  await db
    .deleteFrom('folder_permissions')
    .where('folder_id', '=', folderId)
    .where('user_id', '=', userId)
    .execute();
  if (permissions.length > 0) {
    await db
      .insertInto('folder_permissions')
      .values({ team_id: teamId, folder_id: folderId, user_id: userId, group_id: null, permissions })
      .execute();
  }
}

export async function upsertGroupPermission(
  db: Db,
  teamId: number,
  folderId: number,
  groupId: number,
  permissions: Permission[],
) {
  await db
    .deleteFrom('folder_permissions')
    .where('folder_id', '=', folderId)
    .where('group_id', '=', groupId)
    .execute();
  if (permissions.length > 0) {
    await db
      .insertInto('folder_permissions')
      .values({ team_id: teamId, folder_id: folderId, user_id: null, group_id: groupId, permissions })
      .execute();
  }
}

export const deleteUserPermissionsInTeam = (db: Db, teamId: number, userId: number) =>
  db.deleteFrom('folder_permissions').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
