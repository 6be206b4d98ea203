// The metadata step of upload processing (spec §1 upload flow): every JPEG that arrives at a
// project is stamped with the project's template before delivery; other files pass unchanged.
// A MetadataError is thrown on: processing.ts then keeps the original file and records the error.
import { emptyVariableOf, isJpeg, isMetadataError } from '@photorelay/xmp/index';
import type { AppContext } from '../context.ts';
import { getHoldSetting, getVariableHoldSetting } from '../modules/metadata/queries.ts';
import { loadStampOptions, loadTemplate, readFirstBytes, stampBlob } from '../modules/metadata/stamping.ts';
import {
  FailureThatHolds,
  type ProcessedFile,
  type ProcessingStep,
  type UploadToProcess,
} from './processing.ts';

/** Job details stay small even for a file that produces a warning per segment. */
const maxWarnings = 50;

export const metadataStep: ProcessingStep = { name: 'metadata', run: stampUpload };

async function stampUpload(
  ctx: AppContext,
  upload: UploadToProcess,
  current: ProcessedFile,
): Promise<ProcessedFile | null> {
  const { template, active } = await loadTemplate(ctx.db, upload.teamId, upload.projectId);
  if (active === 0) return null;
  if (!isJpeg(await readFirstBytes(ctx, current.blobKey, 3))) {
    // Returning the file itself is only safe while it is the upload's own blob: processing.ts
    // removes a previous step's blob when a step returns a result.
    return current.blobKey === upload.blobKey
      ? { ...current, detail: { metadata: 'not a JPEG: passed unchanged' } }
      : null;
  }
  const { options, warnings: optionWarnings } = await loadStampOptions(ctx.db, upload.teamId);
  const filename = upload.path.split('/').pop() ?? upload.path;
  let stamped: Awaited<ReturnType<typeof stampBlob>>;
  try {
    stamped = await stampBlob(ctx, current.blobKey, template, { ...options, filename });
  } catch (error) {
    // Issue 15: a file that cannot be stamped goes out as it came ("delivered unstamped"), or
    // waits for a release when the project holds such pictures. processing.ts records the error;
    // the hold is written with it when the upload is settled, never before its reason.
    if (isMetadataError(error)) {
      const setting = await getHoldSetting(ctx.db, upload.teamId, upload.projectId);
      if (setting?.hold_unstampable) throw new FailureThatHolds(error);
    }
    throw error;
  }
  const warnings = [...optionWarnings, ...stamped.warnings];
  return {
    hold: await holdsEmptyVariables(ctx, upload, warnings),
    blobKey: stamped.blobKey,
    size: stamped.size,
    sha256: stamped.sha256,
    detail: {
      metadata: {
        applied: active,
        warnings: warnings.slice(0, maxWarnings),
        unknownVariables: stamped.unknownVariables.slice(0, maxWarnings),
      },
    },
  };
}

/**
 * Issue 28 item 5: a variable without a value for this picture ("{photographer} had no value for
 * camera serial 1234") is sent as it is (default) or, with the project's setting, its deliveries
 * wait as 'held' like an unstampable picture's and are released the same way ('retry now').
 */
async function holdsEmptyVariables(ctx: AppContext, upload: UploadToProcess, warnings: string[]) {
  // The test image (id 0) has no deliveries to hold.
  if (upload.id === 0 || !warnings.some((warning) => emptyVariableOf(warning))) return false;
  const setting = await getVariableHoldSetting(ctx.db, upload.teamId, upload.projectId);
  return setting?.hold_unresolved_variables === true;
}
