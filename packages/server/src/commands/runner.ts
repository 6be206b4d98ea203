import { AppError } from '@photorelay/contract/errors';
import type { AppContext } from '../context.ts';
import { commandKinds, type Lane, laneConcurrency, slowCommandKinds, slowCommandsPerTeam } from './kinds.ts';
import * as q from './queries.ts';
import { type AllCommandHandlers, missingHandlers } from './registry.ts';
import { unsealPayload } from './sealed-payload.ts';

const leaseSeconds = 300;

export const interruptedText =
  'The command was interrupted (the server stopped while it ran) and was not run again. Start it again if it is still needed.';

/**
 * Runs stored commands in two lanes, each fair across teams (queries.ts claimCommand): fast
 * local commands never wait behind slow network ones (kinds.ts). A command is run once: one
 * whose run was cut off (the process died or hung while it ran, its lease ran out) ends as an
 * error when it is taken again, so an input that crashes the server cannot crash the next one too.
 * `handlers` has one for every kind in kinds.ts, or the runner does not start.
 */
export function startCommandRunner(
  ctx: AppContext,
  {
    handlers,
    concurrency = laneConcurrency,
    pollMs = 1000,
  }: { handlers: AllCommandHandlers; concurrency?: Record<Lane, number>; pollMs?: number },
) {
  const missing = missingHandlers(commandKinds, handlers);
  if (missing.length > 0)
    throw new Error(`The command runner has no handler for command kind ${missing.join(', ')}`);
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const active: Record<Lane, number> = { fast: 0, slow: 0 };

  const runOne = async (lane: Lane): Promise<boolean> => {
    const cmd = await q.claimCommand(ctx.db, leaseSeconds, {
      slowKinds: slowCommandKinds,
      slow: lane === 'slow',
      // The slow lane is shared: one team's hanging Tests must not hold all of it.
      perTeam: lane === 'slow' ? slowCommandsPerTeam : undefined,
    });
    if (!cmd) return false;
    // There was work: a sibling looks for more while this one runs.
    pumpLane(lane);
    const handler = Object.hasOwn(handlers, cmd.kind) ? handlers[cmd.kind] : undefined;
    if (!handler) {
      await q.finishCommand(ctx.db, cmd.id, 'error', `Unknown command ${cmd.kind}`);
    } else if (cmd.attempts > 1) {
      await q.finishCommand(ctx.db, cmd.id, 'error', interruptedText);
    } else {
      try {
        const detail = await handler(ctx, {
          id: cmd.id,
          teamId: cmd.team_id,
          userId: cmd.user_id,
          payload: unsealPayload(ctx.config.secretKey, cmd.payload),
        });
        await q.finishCommand(ctx.db, cmd.id, 'ok', detail);
      } catch (error) {
        if (!(error instanceof AppError)) ctx.log.warn({ err: error, command: cmd.kind }, 'command failed');
        await q.finishCommand(
          ctx.db,
          cmd.id,
          'error',
          error instanceof Error ? error.message : String(error),
        );
      }
    }
    return true;
  };

  const pumpLane = (lane: Lane) => {
    while (!stopped && active[lane] < concurrency[lane]) {
      active[lane]++;
      const p = runOne(lane)
        .catch((error) => {
          ctx.log.error({ err: error }, 'command runner failed');
          return false;
        })
        .then((didWork) => {
          active[lane]--;
          inFlight.delete(p);
          if (didWork) pumpLane(lane);
        });
      inFlight.add(p);
      // One claim at a time is enough to learn whether there is work; more start once it finds some.
      if (active[lane] > 0) break;
    }
  };
  const pump = () => {
    pumpLane('fast');
    pumpLane('slow');
  };

  const timer = setInterval(pump, pollMs);
  pump();
  return {
    wake: pump,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
