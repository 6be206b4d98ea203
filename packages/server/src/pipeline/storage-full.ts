// Issue 29 item 4: a full disk while a step writes its file (the stamped head, a script's copy)
// is the machine's state, not the picture's: the upload waits and is processed again once there
// is space, instead of being delivered unstamped.
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

/** The errno codes of a full disk or a used-up quota. */
const storageFullCodes = new Set(['ENOSPC', 'EDQUOT']);

/** Whether `error` (or an error it wraps) is a full disk or quota. */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (storageFullCodes.has((e as NodeJS.ErrnoException).code ?? '')) return true;
  }
  return false;
}

/** Thrown by processUpload when a step could not write for lack of space; nothing is kept. */
export class StorageFullError extends Error {
  readonly code = 'StorageFull';
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`No space left to write the ${step} step's file; the upload waits for space`, { cause });
  }
}

/**
 * The upload stays 'processing' with its lease running out in `seconds`: it is claimed again
 * then (claimUploadToProcess takes leases that ran out), and its jobs wait meanwhile.
 */
export const postponeUpload = (db: Db, id: number, seconds: number) =>
  sql`update uploads set locked_until = now() + make_interval(secs => ${seconds})
      where id = ${id} and state = 'processing'`.execute(db);
