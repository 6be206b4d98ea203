import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { XmpModeName } from '../../db/schema.ts';
import { destinationLive } from '../jobs/protocol-queries.ts';

// Every query names the team: a project id of another team matches nothing.
const teamProjects = (db: Db, teamId: number) =>
  db.selectFrom('projects').select('id').where('team_id', '=', teamId);

export const listValues = (db: Db, teamId: number, projectId: number) =>
  db
    .selectFrom('project_xmp_values')
    .select(['propertytypeids', 'position', 'lang', 'value'])
    .where('project_id', '=', projectId)
    .where('project_id', 'in', teamProjects(db, teamId))
    // Byte order, so the list reads the same on every database collation.
    .orderBy(sql`propertytypeids collate "C"`)
    .orderBy('position')
    .orderBy(sql`lang collate "C"`)
    .execute();

export const listModes = (db: Db, teamId: number, projectId: number) =>
  db
    .selectFrom('project_xmp_modes')
    .select(['property_id', 'mode'])
    .where('project_id', '=', projectId)
    .where('project_id', 'in', teamProjects(db, teamId))
    .orderBy(sql`property_id collate "C"`)
    .execute();

export async function countValues(db: Db, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('project_xmp_values')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ValueRow {
  propertytypeids: string;
  position: number;
  lang: string;
  value: string;
}

/** Inserts or replaces values (the project id was checked against the team by the service). */
export const upsertValues = (db: Db, projectId: number, rows: readonly ValueRow[]) =>
  rows.length === 0
    ? Promise.resolve()
    : db
        .insertInto('project_xmp_values')
        .values(rows.map((r) => ({ project_id: projectId, ...r })))
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'propertytypeids', 'position', 'lang'])
            .doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
        )
        .execute();

/** The value at `ids` and, when `withChildren`, every structure field or item below it ('ids,…', 'ids[n]…'). */
export function deleteValues(
  db: Db,
  projectId: number,
  ids: string,
  where: { position?: number; lang?: string; withChildren: boolean },
) {
  let query = db
    .deleteFrom('project_xmp_values')
    .where('project_id', '=', projectId)
    .where((eb) =>
      where.withChildren
        ? eb.or([
            eb('propertytypeids', '=', ids),
            eb(sql<boolean>`starts_with(propertytypeids, ${`${ids},`})`, '=', true),
            eb(sql<boolean>`starts_with(propertytypeids, ${`${ids}[`})`, '=', true),
          ])
        : eb('propertytypeids', '=', ids),
    );
  if (where.position !== undefined) query = query.where('position', '=', where.position);
  if (where.lang !== undefined) query = query.where('lang', '=', where.lang);
  return query.executeTakeFirst();
}

export const clearValues = (db: Db, projectId: number) =>
  db.deleteFrom('project_xmp_values').where('project_id', '=', projectId).execute();

export const clearModes = (db: Db, projectId: number) =>
  db.deleteFrom('project_xmp_modes').where('project_id', '=', projectId).execute();

export const upsertModes = (
  db: Db,
  projectId: number,
  modes: ReadonlyArray<{ propertyId: string; mode: XmpModeName }>,
) =>
  modes.length === 0
    ? Promise.resolve()
    : db
        .insertInto('project_xmp_modes')
        .values(modes.map((m) => ({ project_id: projectId, property_id: m.propertyId, mode: m.mode })))
        .onConflict((oc) =>
          oc.columns(['project_id', 'property_id']).doUpdateSet((eb) => ({ mode: eb.ref('excluded.mode') })),
        )
        .execute();

// Test images of processimage.

export const insertTestImage = (
  db: Db,
  row: { teamId: number; projectId: number; filename: string; sourceBlobKey: string; expiresAt: Date },
) =>
  db
    .insertInto('metadata_test_images')
    .values({
      team_id: row.teamId,
      project_id: row.projectId,
      filename: row.filename,
      source_blob_key: row.sourceBlobKey,
      command_id: null,
      token_hash: null,
      result_blob_key: null,
      result_size: null,
      expires_at: row.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const findTestImage = (db: Db, teamId: number, id: number) =>
  db
    .selectFrom('metadata_test_images')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The test result of a processimage command of this member (only who started it downloads it). */
export const findTestResult = (db: Db, member: { teamId: number; userId: number }, commandId: number) =>
  db
    .selectFrom('metadata_test_images')
    .innerJoin('commands', 'commands.id', 'metadata_test_images.command_id')
    .selectAll('metadata_test_images')
    .where('metadata_test_images.team_id', '=', member.teamId)
    .where('commands.user_id', '=', member.userId)
    .where('command_id', '=', commandId)
    .where('result_blob_key', 'is not', null)
    .where('metadata_test_images.expires_at', '>', new Date())
    .executeTakeFirst();

export const storeTestResult = (
  db: Db,
  teamId: number,
  id: number,
  result: { commandId: number; tokenHash: string; blobKey: string; size: number; expiresAt: Date },
) =>
  db
    .updateTable('metadata_test_images')
    .set({
      command_id: result.commandId,
      token_hash: result.tokenHash,
      result_blob_key: result.blobKey,
      result_size: result.size,
      source_blob_key: null,
      expires_at: result.expiresAt,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();

export const deleteTestImage = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('metadata_test_images').where('team_id', '=', teamId).where('id', '=', id).execute();

/** Expired rows of every team, removed and returned so their blobs can go too. */
export const deleteExpiredTestImages = (db: Db, now: Date, limit: number) =>
  db
    .deleteFrom('metadata_test_images')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('metadata_test_images')
        .select('id')
        .where('expires_at', '<', now)
        .orderBy('id')
        .limit(limit),
    )
    .returning(['source_blob_key', 'result_blob_key'])
    .execute();

export const getHoldSetting = (db: Db, teamId: number, projectId: number) =>
  db
    .selectFrom('projects')
    .select('hold_unstampable')
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

export const setHoldSetting = (db: Db, teamId: number, projectId: number, hold: boolean) =>
  db
    .updateTable('projects')
    .set({ hold_unstampable: hold })
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

/** Issue 28: whether the project holds pictures a template variable had no value for. */
export const getVariableHoldSetting = (db: Db, teamId: number, projectId: number) =>
  db
    .selectFrom('projects')
    .select('hold_unresolved_variables')
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

export const setVariableHoldSetting = (db: Db, teamId: number, projectId: number, hold: boolean) =>
  db
    .updateTable('projects')
    .set({ hold_unresolved_variables: hold })
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

/**
 * Issue 26 "send as is": the held deliveries of one upload (its file could not be stamped) go
 * out at once, unstamped; those to a destination removed since stay held. The number released.
 */
export const releaseHeldJobsOfUpload = async (db: Db, teamId: number, uploadId: number) =>
  (
    await sql<{ n: number }>`
      with job as (
        update jobs j set state = 'scheduled', scheduletime = now(), finished_at = null
        where j.team_id = ${teamId} and j.upload_id = ${uploadId} and j.state = 'held' and ${destinationLive}
        returning j.id
      )
      select count(*)::int as n from job
    `.execute(db)
  ).rows[0]?.n ?? 0;
