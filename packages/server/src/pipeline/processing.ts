import type { AppContext } from '../context.ts';
import { isStorageFull, StorageFullError } from './storage-full.ts';

export interface UploadToProcess {
  id: number;
  teamId: number;
  projectId: number;
  path: string;
  blobKey: string;
  size: number;
  sha256: string;
}

export interface ProcessedFile {
  blobKey: string;
  size: number;
  /** Null for a file a step wrote (not hashed: read when a delivery to a project needs it). */
  sha256: string | null;
  /** Shown in the job detail: warnings, unknown variables, what was applied. */
  detail: Record<string, unknown>;
  /** The name to deliver under, when a step (a script's file.name) changed it. */
  filename?: string;
  /** Destinations not to deliver to (a script's skip(name)). */
  skipped?: string[];
  /** A script's reject(reason): delivered nowhere. */
  rejected?: string | null;
  /**
   * Its deliveries wait as 'held' until released (a picture that cannot be stamped, or whose
   * variables had no value, in a project that holds such pictures). Set together with the
   * result and its reason, in one transaction (settleUpload): never held without its reason.
   */
  hold?: boolean;
}

/**
 * Thrown by a step whose failure holds the upload's deliveries: recorded like any failure (the
 * original passes on, the reason goes to the detail), and `hold` is set on the result.
 */
export class FailureThatHolds extends Error {
  constructor(readonly failure: Error) {
    super(failure.message, { cause: failure });
  }
}

/**
 * Thrown by a step whose failure must stop the upload (a script error): nothing is delivered,
 * the original is kept and the upload's jobs fail at once with this message.
 */
export class ProcessingStopped extends Error {
  constructor(
    message: string,
    readonly detail: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The one processing hook, run once per upload before any delivery: the metadata engine and
 * the script runner plug in here. A step returns a new blob or `null` to pass the file on
 * unchanged; a failure keeps the original and is reported in the detail, so nothing is lost.
 * A step that fails for lack of disk space rejects with StorageFullError: the upload waits.
 * The steps are a list runtime.ts hands to the worker (and to the test image command), in order.
 */
export interface ProcessingStep {
  /** Names the step's entry in the detail when it fails. */
  name: string;
  run(ctx: AppContext, upload: UploadToProcess, current: ProcessedFile): Promise<ProcessedFile | null>;
}

export async function processUpload(
  ctx: AppContext,
  steps: readonly ProcessingStep[],
  upload: UploadToProcess,
): Promise<ProcessedFile> {
  let current: ProcessedFile = {
    blobKey: upload.blobKey,
    size: upload.size,
    sha256: upload.sha256,
    detail: {},
  };
  for (const step of steps) {
    try {
      const next = await step.run(ctx, upload, current);
      if (next) {
        // The blob an earlier step made is dropped once a later step replaced it.
        if (current.blobKey !== upload.blobKey && next.blobKey !== current.blobKey)
          await ctx.blobs.remove(current.blobKey);
        current = {
          ...next,
          detail: { ...current.detail, ...next.detail },
          hold: current.hold === true || next.hold === true,
        };
      }
    } catch (error) {
      if (error instanceof ProcessingStopped || isStorageFull(error)) {
        if (current.blobKey !== upload.blobKey) await ctx.blobs.remove(current.blobKey);
        if (error instanceof ProcessingStopped) throw error;
        // A full disk is no reason to send the file as it came: it waits for space (issue 29).
        throw new StorageFullError(step.name, error);
      }
      const holds = error instanceof FailureThatHolds;
      const failure = holds ? error.failure : error;
      ctx.log.warn(
        { err: failure, upload: upload.id, step: step.name, hold: holds },
        'processing step failed; file passes unchanged',
      );
      current = {
        ...current,
        detail: { ...current.detail, [step.name]: { error: (failure as Error).message } },
        hold: current.hold === true || holds,
      };
    }
  }
  if (steps.length === 0) current.detail.processing = 'unchanged';
  return current;
}
