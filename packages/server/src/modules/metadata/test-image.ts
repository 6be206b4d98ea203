// The overview page's test image (spec §2, §7 processimage): the upload is stored as a blob
// before the command is queued (so the command row holds no image), stamped by the command
// with the project's template, and offered for download for an hour.
import { Readable } from 'node:stream';
import { AppError } from '@photorelay/contract/errors';
import {
  errorPositionSeparator,
  metadataLimits,
  type ProcessImageDetail,
} from '@photorelay/contract/metadata';
import { isMetadataError } from '@photorelay/xmp/index';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { randomToken, sha256, tokenMatches } from '../../crypto/tokens.ts';
import { requireStorageRoom } from '../teams/quota.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';
import { decodeContent, requireProject } from './service.ts';
import { loadStampOptions, loadTemplate, stampBlob } from './stamping.ts';

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

/** Command processimage: stamps the stored test image; the detail names the result for downloadresultfile. */
export async function processTestImage(
  ctx: AppContext,
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
  try {
    const project = await requireProject(ctx, member, payload.dbprojectid, 'read');
    const [{ template }, { options, warnings: optionWarnings }] = await Promise.all([
      loadTemplate(ctx.db, member.teamId, project.id),
      loadStampOptions(ctx.db, member.teamId),
    ]);
    const stamped = await stampBlob(ctx, sourceKey, template, { ...options, filename: image.filename });
    const token = randomToken(18);
    await q.storeTestResult(ctx.db, member.teamId, image.id, {
      commandId,
      tokenHash: sha256(token),
      blobKey: stamped.blobKey,
      size: stamped.size,
      expiresAt: new Date(Date.now() + lifetimeMs),
    });
    await ctx.blobs.remove(sourceKey);
    return {
      a: commandId,
      b: token,
      filename: image.filename,
      size: stamped.size,
      warnings: [...optionWarnings, ...stamped.warnings],
      unknownVariables: stamped.unknownVariables,
    };
  } catch (error) {
    await discard();
    // Bad input, not a fault of ours: an AppError, which the command runner does not log.
    throw isMetadataError(error) ? new AppError('ValidationError', positionedMessage(error)) : error;
  }
}

/** GET command/downloadresultfile/{a}/{b}: the stamped test image of this team, until it expires. */
export async function openTestResult(ctx: AppContext, member: Member, commandId: number, token: string) {
  const row = await q.findTestResult(ctx.db, member.teamId, commandId);
  if (!row?.result_blob_key || !row.token_hash || !tokenMatches(token, row.token_hash))
    throw new AppError('NotFound');
  return {
    filename: row.filename,
    size: Number(row.result_size),
    stream: ctx.blobs.read(row.result_blob_key),
  };
}
