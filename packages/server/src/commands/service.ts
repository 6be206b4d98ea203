import { AppError } from '@photorelay/contract/errors';
import type { AppContext } from '../context.ts';
import { randomToken, sha256 } from '../crypto/tokens.ts';
import { requireStorageRoom } from '../modules/teams/quota.ts';
import {
  finishedCommandRetentionMs,
  isSlowCommand,
  queuedSlowCommandsPerMember,
  slowCommandKinds,
} from './kinds.ts';
import * as q from './queries.ts';
import { sealPayload } from './sealed-payload.ts';

/**
 * Stores a command for the runner: its payload sealed, within the team's storage quota, and a
 * slow (network) command only while the member has fewer than the limit waiting.
 */
export async function queueCommand(
  ctx: AppContext,
  member: { teamId: number; userId: number },
  kind: string,
  payload: unknown,
) {
  const token = randomToken(18);
  const stored = sealPayload(ctx.config.secretKey, payload);
  await requireStorageRoom(ctx, member.teamId, Buffer.byteLength(JSON.stringify(stored)));
  const row = await ctx.db.transaction().execute(async (trx) => {
    if (isSlowCommand(kind)) {
      await q.lockMemberQueue(trx, member.teamId, member.userId);
      const waiting = await q.countUnfinishedCommands(trx, member.teamId, member.userId, slowCommandKinds);
      if (waiting >= queuedSlowCommandsPerMember)
        throw new AppError(
          'TooManyRequests',
          `At most ${queuedSlowCommandsPerMember} connection tests may wait at once; please wait until one has finished`,
        );
    }
    return q.insertCommand(trx, {
      teamId: member.teamId,
      userId: member.userId,
      kind,
      tokenHash: sha256(token),
      payload: stored,
    });
  });
  ctx.wake.commands();
  return { commandId: row.id, token };
}

/** The worker's retention: finished commands, with their answers, go after a day. */
export const purgeFinishedCommands = (ctx: AppContext) =>
  q.deleteFinishedCommands(ctx.db, new Date(Date.now() - finishedCommandRetentionMs));
