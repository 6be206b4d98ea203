// Issue 29 item 6: a process killed mid-write (kill -9, a power cut) leaves files no row refers
// to: a received file not yet recorded, a stamped head not yet noted, temp files. They are
// removed at start and daily, once older than any write in progress can be (ORPHAN_FILE_AGE_SECONDS).
import type { AppContext } from '../context.ts';
import type { Db } from '../db/kysely.ts';

/** Every blob key a row refers to: uploads (received, processed, pictures) and test images. */
async function referencedBlobKeys(db: Db): Promise<Set<string>> {
  const [uploads, testImages] = await Promise.all([
    db
      .selectFrom('uploads')
      .select(['blob_key', 'processed_blob_key', 'thumbnail_blob_key', 'preview_blob_key'])
      .execute(),
    db.selectFrom('metadata_test_images').select(['source_blob_key', 'result_blob_key']).execute(),
  ]);
  const keys = new Set<string>();
  for (const row of [...uploads, ...testImages])
    for (const key of Object.values(row)) if (typeof key === 'string') keys.add(key);
  return keys;
}

/**
 * Removes the blobs no row refers to and the temp files, all older than `ageSeconds`. The
 * files are listed before the rows are read: a file written and recorded meanwhile is either too
 * young to be listed or found referenced.
 */
export async function sweepOrphanFiles(ctx: AppContext, ageSeconds: number) {
  const before = new Date(Date.now() - ageSeconds * 1000);
  const listed: string[] = [];
  for await (const key of ctx.blobs.listKeys(before)) listed.push(key);
  const temp = await ctx.blobs.removeTemp(before);
  const referenced = listed.length > 0 ? await referencedBlobKeys(ctx.db) : new Set<string>();
  const orphans = listed.filter((key) => !referenced.has(key));
  for (const key of orphans) await ctx.blobs.remove(key);
  if (orphans.length > 0 || temp > 0)
    ctx.log.warn({ files: orphans.length, temp }, 'removed files a stopped process left behind');
  return { files: orphans.length, temp };
}
