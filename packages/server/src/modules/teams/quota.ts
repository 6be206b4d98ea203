import { AppError } from '@photorelay/contract/errors';
import { metadataLimits } from '@photorelay/contract/metadata';
import type { AppContext } from '../../context.ts';
import { teamStoredBytes } from './quota-queries.ts';

const megabyte = 1024 * 1024;

/** The bytes of the server's storage a team holds now (what TEAM_STORAGE_QUOTA_MB limits). */
export async function teamStorageUsed(ctx: AppContext, teamId: number) {
  const stored = await teamStoredBytes(ctx.db, teamId);
  // Uploads waiting to be stamped are few (stamping takes about a second): their blobs' sizes.
  const pending = await Promise.all(stored.pendingImageKeys.map((key) => ctx.blobs.size(key).catch(() => 0)));
  return (
    stored.resultBytes + stored.commandBytes + stored.scriptLogBytes + pending.reduce((sum, n) => sum + n, 0)
  );
}

/**
 * A team's share of the server's storage: test images (up to 30 MB each, kept an hour), the
 * payloads and answers of its commands (XMP sidecars) and its uploads' script logs. Called with one line where either is
 * stored; refuses what would go over with QuotaExceeded (413) and stores nothing.
 */
export async function requireStorageRoom(ctx: AppContext, teamId: number, incomingBytes: number) {
  const quotaMb = ctx.config.TEAM_STORAGE_QUOTA_MB;
  if ((await teamStorageUsed(ctx, teamId)) + incomingBytes <= quotaMb * megabyte) return;
  throw new AppError(
    'QuotaExceeded',
    `The team's storage quota of ${quotaMb} MB is used up ` +
      `(test images expire after ${metadataLimits.testResultMinutes} minutes); please try again later`,
  );
}
