// What processing decided, written for the upload and its jobs: processed (with the scripts'
// name, skips and reject), or stopped by a script error (its jobs fail at once).
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
  if ((result.rejected ?? null) === null && (result.skipped ?? []).length === 0) {
    await jobs.markProcessed(db, uploadId, result);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await q.settleScriptedJobs(trx, uploadId, {
      rejected: result.rejected ?? null,
      skipped: result.skipped ?? [],
    });
    await jobs.markProcessed(trx, uploadId, result);
  });
}
