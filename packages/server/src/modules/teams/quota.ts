import { AppError } from '@photorelay/contract/errors';
import { metadataLimits } from '@photorelay/contract/metadata';
import type { AppContext } from '../../context.ts';
import { teamStoredBytes } from './quota-queries.ts';

const megabyte = 1024 * 1024;

/**
 * A team's share of the server's storage (TEAM_STORAGE_QUOTA_MB): test images (up to 30 MB
 * each, kept an hour) and the payloads and answers of its commands (XMP sidecars). Called with
 * one line where either is stored; refuses what would go over with QuotaExceeded (413).
 */
export async function requireStorageRoom(ctx: AppContext, teamId: number, incomingBytes: number) {
  const quota = ctx.config.TEAM_STORAGE_QUOTA_MB * megabyte;
  const used = await teamStoredBytes(ctx.db, teamId, metadataLimits.testImageBytes);
  if (used.images + used.commands + incomingBytes <= quota) return;
  throw new AppError(
    'QuotaExceeded',
    `The team's storage quota of ${ctx.config.TEAM_STORAGE_QUOTA_MB} MB is used up ` +
      `(test images expire after ${metadataLimits.testResultMinutes} minutes); please try again later`,
  );
}
