import * as c from '@photorelay/contract/metadata';
import type { CommandHandlers } from '../../commands/registry.ts';
import type { ProcessingStep } from '../../pipeline/processing.ts';
import { memberForCommand } from '../teams/service.ts';
import * as metadata from './service.ts';
import * as testImage from './test-image.ts';

/** The metadata area's commands; a test image goes through `steps`, the uploads' processing. */
export const metadataCommands = (steps: readonly ProcessingStep[]) =>
  ({
    storexmpfile: async (ctx, run) =>
      metadata.storeXmpFile(ctx, await memberForCommand(ctx.db, run), c.storeXmpFileBody.parse(run.payload)),
    downloadxmpfile: async (ctx, run) =>
      metadata.downloadXmpFile(
        ctx,
        await memberForCommand(ctx.db, run),
        c.downloadXmpFileBody.parse(run.payload).dbprojectid,
      ),
    processimage: async (ctx, run) =>
      testImage.processTestImage(
        ctx,
        steps,
        await memberForCommand(ctx.db, run),
        run.id,
        testImage.processImagePayload.parse(run.payload),
      ),
  }) satisfies CommandHandlers;
