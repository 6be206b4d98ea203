import type { Db } from '../../db/kysely.ts';

/** An upload of the team with what its thumbnails are made from, and its project's folder. */
export const findUploadPicture = (db: Db, teamId: number, uploadId: number) =>
  db
    .selectFrom('uploads as u')
    .innerJoin('projects as p', 'p.id', 'u.project_id')
    .select([
      'u.id',
      'u.blob_key',
      'u.processed_blob_key',
      'u.thumbnail_blob_key',
      'u.preview_blob_key',
      'u.filename',
      'p.folder_id',
    ])
    .where('u.team_id', '=', teamId)
    .where('u.id', '=', uploadId)
    .executeTakeFirst();

/** Keeps a thumbnail made now; false when another request stored one first (or the upload went). */
export async function storeUploadPicture(
  db: Db,
  uploadId: number,
  size: 'small' | 'large',
  blobKey: string,
): Promise<boolean> {
  const column = size === 'small' ? 'thumbnail_blob_key' : 'preview_blob_key';
  const result = await db
    .updateTable('uploads')
    .set({ [column]: blobKey })
    .where('id', '=', uploadId)
    .where(column, 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
