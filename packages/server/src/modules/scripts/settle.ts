// What processing decided, written for the upload and its jobs: processed (with the scripts'
// name, skips and reject, and the hold of a picture that could not be stamped, together with
// its reason), or stopped by a script error (its jobs fail at once).
import type { Db } from '../../db/kysely.ts';
import { type ProcessedFile, ProcessingStopped } from '../../pipeline/processing.ts';
import * as jobs from '../../pipeline/queue.ts';
import * as q from './queries.ts';

export async function settleUpload(db: Db, uploadId: number, result: ProcessedFile | ProcessingStopped) {
  if (result instanceof ProcessingStopped) {
    await q.failUpload(db, uploadId, result.message.slice(0, 2000), result.detail);
    return;
  }
  // Nothing for the scripts to settle (the usual case): one statement, no transaction, which
  // on PGlite would hold the session for three round trips (issue 15).
  const hold = result.hold === true;
  if ((result.rejected ?? null) === null && (result.skipped ?? []).length === 0 && !hold) {
    await jobs.markProcessed(db, uploadId, result);
    return;
  }
  await db.transaction().execute(async (trx) => {
    // Held first, as before: a script's reject or skip then leaves the held deliveries held.
    if (hold) await jobs.holdJobsOfUpload(trx, uploadId);
    await q.settleScriptedJobs(trx, uploadId, {
      rejected: result.rejected ?? null,
      skipped: result.skipped ?? [],
    });
    await jobs.markProcessed(trx, uploadId, result);
  });
}
