import type { AppContext } from '../context.ts';
import type { Db } from '../db/kysely.ts';

/** Finished uploads older than the retention period, with their blobs. */
const listExpiredUploads = (db: Db, before: Date, limit: number) =>
  db
    .selectFrom('uploads as u')
    .select(['u.id', 'u.blob_key', 'u.processed_blob_key'])
    .where('u.received_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.id')
            .whereRef('jobs.upload_id', '=', 'u.id')
            .where('jobs.state', 'in', ['scheduled', 'running']),
        ),
      ),
    )
    .limit(limit)
    .execute();

const deleteUploads = (db: Db, ids: number[]) => db.deleteFrom('uploads').where('id', 'in', ids).execute();

/** Removes finished uploads older than `retentionDays`, with their files, 500 at a time. */
export async function purgeExpiredUploads(ctx: AppContext, retentionDays: number) {
  const before = new Date(Date.now() - retentionDays * 24 * 3600_000);
  for (;;) {
    const expired = await listExpiredUploads(ctx.db, before, 500);
    if (expired.length === 0) return;
    await deleteUploads(
      ctx.db,
      expired.map((u) => u.id),
    );
    const keys = new Set(
      expired.flatMap((u) => [u.blob_key, u.processed_blob_key]).filter((k): k is string => k !== null),
    );
    await Promise.all([...keys].map((k) => ctx.blobs.remove(k)));
  }
}
