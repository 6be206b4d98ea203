import type { Db } from '../../db/kysely.ts';

export const listFiles = (db: Db, teamId: number) =>
  db
    .selectFrom('config_files')
    .select(['id', 'name', 'size', 'updated_at'])
    .where('team_id', '=', teamId)
    .orderBy('name')
    .execute();

export const findFileById = (db: Db, teamId: number, id: number) =>
  db
    .selectFrom('config_files')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();

export const findFileByName = (db: Db, teamId: number, name: string) =>
  db
    .selectFrom('config_files')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .executeTakeFirst();

/** Insert, or replace the file of the same name (spec: an existing name replaces it). */
export const upsertFile = (db: Db, teamId: number, name: string, content: Buffer) =>
  db
    .insertInto('config_files')
    .values({ team_id: teamId, name, content, size: content.length, updated_at: new Date() })
    .onConflict((oc) =>
      oc.columns(['team_id', 'name']).doUpdateSet({ content, size: content.length, updated_at: new Date() }),
    )
    .returning(['id', 'size'])
    .executeTakeFirstOrThrow();

export const renameFile = (db: Db, teamId: number, id: number, name: string) =>
  db.updateTable('config_files').set({ name }).where('team_id', '=', teamId).where('id', '=', id).execute();

export const deleteFile = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('config_files').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
