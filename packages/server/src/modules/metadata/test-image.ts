// The overview page's test image (spec §2, §7 processimage): the upload is stored as a blob
// before the command is queued (so the command row holds no image), stamped by the command
// with the project's template and scripts (the upload processing), and offered for download for an hour.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError } from '@photorelay/contract/errors';
import {
  errorPositionSeparator,
  metadataLimits,
  type ProcessImageDetail,
} from '@photorelay/contract/metadata';
import { isMetadataError, readJpegMetadata, type TemplateValue } from '@photorelay/xmp/index';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { randomToken, sha256, tokenMatches } from '../../crypto/tokens.ts';
import { type ProcessingStep, ProcessingStopped, processUpload } from '../../pipeline/processing.ts';
import type { ScriptReport } from '../scripts/processing-step.ts';
import { requireStorageRoom } from '../teams/quota.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';
import { decodeContent, requireProject } from './service.ts';

const lifetimeMs = metadataLimits.testResultMinutes * 60_000;

/** What the processimage command row carries: a reference, not the image. */
export const processImagePayload = z.object({
  dbprojectid: z.number().int().positive(),
  testImageId: z.number().int().positive(),
});
export type ProcessImagePayload = z.infer<typeof processImagePayload>;

/**
 * Removes expired test images of every team with their files: when a new one arrives (a batch)
 * and with the worker's hourly retention (all of them).
 */
export async function purgeExpiredTestImages(ctx: AppContext, options: { all?: boolean } = {}) {
  const batch = 100;
  for (;;) {
    const rows = await q.deleteExpiredTestImages(ctx.db, new Date(), batch);
    const keys = rows
      .flatMap((r) => [r.source_blob_key, r.result_blob_key])
      .filter((k): k is string => k !== null);
    await Promise.all(keys.map((k) => ctx.blobs.remove(k).catch(() => {})));
    if (!options.all || rows.length < batch) return;
  }
}

/** Checks and stores the uploaded test image; the route then queues the command with the payload. */
export async function acceptTestImage(
  ctx: AppContext,
  member: Member,
  input: { dbprojectid: number; filename: string; content: string },
): Promise<ProcessImagePayload> {
  const project = await requireProject(ctx, member, input.dbprojectid, 'read');
  if (!/\.jpe?g$/i.test(input.filename))
    throw new AppError('ValidationError', 'The test image must be a .jpg file');
  if (!input.content.startsWith('data:')) throw new AppError('ValidationError', 'content must be a data URL');
  const bytes = decodeContent(input.content);
  if (bytes.length === 0) throw new AppError('ValidationError', 'The test image is empty');
  if (bytes.length > metadataLimits.testImageBytes)
    throw new AppError(
      'PayloadTooLarge',
      `The test image is larger than ${metadataLimits.testImageBytes / 1024 / 1024} MB`,
    );
  await purgeExpiredTestImages(ctx);
  await requireStorageRoom(ctx, member.teamId, bytes.length);
  const blob = await ctx.blobs.write(Readable.from([bytes]));
  try {
    const row = await q.insertTestImage(ctx.db, {
      teamId: member.teamId,
      projectId: project.id,
      filename: input.filename,
      sourceBlobKey: blob.key,
      expiresAt: new Date(Date.now() + lifetimeMs),
    });
    return { dbprojectid: project.id, testImageId: row.id };
  } catch (error) {
    await ctx.blobs.remove(blob.key);
    throw error;
  }
}

/** 'offset 1234<||||>message' for the page's 'Something went wrong:' line (spec §7, §8). */
export function positionedMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!isMetadataError(error)) return message;
  const offset = /\boffset (\d+)/.exec(message);
  return `${offset ? `offset ${offset[1]}` : error.code}${errorPositionSeparator}${message}`;
}

/** Size and hash of a stored blob, as an upload carries them. */
async function describeBlob(ctx: AppContext, key: string) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of ctx.blobs.read(key) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

const toReport = (values: TemplateValue[]) =>
  values.map((v) => ({
    propertytypeids: v.propertytypeids,
    value: v.value,
    ...(v.position === undefined ? {} : { position: v.position }),
    ...(v.lang === undefined ? {} : { lang: v.lang }),
  }));

/** The metadata step's detail: its warnings, or the error it passed the file on with. */
function metadataOutcome(detail: Record<string, unknown>) {
  const m = detail.metadata;
  if (!m || typeof m !== 'object') return { warnings: [] as string[], unknownVariables: [] as string[] };
  const o = m as { warnings?: string[]; unknownVariables?: string[]; error?: string };
  return {
    warnings: [...(o.warnings ?? []), ...(o.error ? [o.error] : [])],
    unknownVariables: o.unknownVariables ?? [],
  };
}

/**
 * Command processimage: the stored test image goes through the very processing a camera upload
 * gets (processUpload: the template, then the scripts), without delivering; the detail names the
 * result for downloadresultfile and reports what the scripts did.
 */
export async function processTestImage(
  ctx: AppContext,
  steps: readonly ProcessingStep[],
  member: Member,
  commandId: number,
  payload: ProcessImagePayload,
): Promise<ProcessImageDetail> {
  const image = await q.findTestImage(ctx.db, member.teamId, payload.testImageId);
  if (!image?.source_blob_key) throw new AppError('NotFound', 'The test image is no longer available');
  const sourceKey = image.source_blob_key;
  const discard = async () => {
    await q.deleteTestImage(ctx.db, member.teamId, image.id);
    await ctx.blobs.remove(sourceKey);
  };
  let resultKey: string | undefined;
  try {
    const project = await requireProject(ctx, member, payload.dbprojectid, 'read');
    // Read first: a file that is no usable JPEG answers with the position of the problem.
    const before = await readJpegMetadata(ctx.blobs.read(sourceKey));
    const processed = await processUpload(ctx, steps, {
      id: 0,
      teamId: member.teamId,
      projectId: project.id,
      path: image.filename,
      blobKey: sourceKey,
      ...(await describeBlob(ctx, sourceKey)),
    });
    if (processed.blobKey !== sourceKey) resultKey = processed.blobKey;
    const after = await readJpegMetadata(ctx.blobs.read(processed.blobKey));
    const script = processed.detail.script as ScriptReport | undefined;
    const token = randomToken(18);
    await q.storeTestResult(ctx.db, member.teamId, image.id, {
      commandId,
      tokenHash: sha256(token),
      blobKey: processed.blobKey,
      size: processed.size,
      expiresAt: new Date(Date.now() + lifetimeMs),
    });
    if (resultKey) await ctx.blobs.remove(sourceKey);
    return {
      a: commandId,
      b: token,
      filename: image.filename,
      size: processed.size,
      ...metadataOutcome(processed.detail),
      report: {
        filename: processed.filename ?? image.filename,
        before: toReport(before.values),
        after: toReport(after.values),
        skipped: script?.skipped ?? [],
        rejected: script?.rejected ?? null,
        log: script?.log ?? [],
      },
    };
  } catch (error) {
    if (resultKey) await ctx.blobs.remove(resultKey).catch(() => {});
    await discard();
    if (error instanceof ProcessingStopped) {
      const failed = (error.detail.script as { error?: { position: string; message: string } } | undefined)
        ?.error;
      throw new AppError(
        'ValidationError',
        failed ? `${failed.position}${errorPositionSeparator}${failed.message}` : error.message,
      );
    }
    // Bad input, not a fault of ours: an AppError, which the command runner does not log.
    throw isMetadataError(error) ? new AppError('ValidationError', positionedMessage(error)) : error;
  }
}

/** GET command/downloadresultfile/{a}/{b}: the stamped test image of this member, until it expires. */
export async function openTestResult(ctx: AppContext, member: Member, commandId: number, token: string) {
  const row = await q.findTestResult(ctx.db, member, commandId);
  if (!row?.result_blob_key || !row.token_hash || !tokenMatches(token, row.token_hash))
    throw new AppError('NotFound');
  return {
    filename: row.filename,
    size: Number(row.result_size),
    stream: ctx.blobs.read(row.result_blob_key),
  };
}
