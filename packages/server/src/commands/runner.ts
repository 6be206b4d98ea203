import { AppError } from '@photorelay/contract/errors';
import type { AppContext } from '../context.ts';
import * as q from './queries.ts';
import { commandHandler } from './registry.ts';

const leaseSeconds = 300;
const maxAttempts = 3;

/**
 * Runs stored commands. A finished command is never run again; one whose runner died is
 * taken again when its lease ends, at most three times.
 */
export function startCommandRunner(ctx: AppContext, { concurrency = 2, pollMs = 1000 } = {}) {
  let active = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  const runOne = async (): Promise<boolean> => {
    const cmd = await q.claimCommand(ctx.db, leaseSeconds);
    if (!cmd) return false;
    const handler = commandHandler(cmd.kind);
    if (!handler) {
      await q.finishCommand(ctx.db, cmd.id, 'error', `Unknown command ${cmd.kind}`);
    } else if (cmd.attempts > maxAttempts) {
      await q.finishCommand(ctx.db, cmd.id, 'error', 'The command was interrupted too often.');
    } else {
      try {
        const detail = await handler(ctx, {
          id: cmd.id,
          teamId: cmd.team_id,
          userId: cmd.user_id,
          payload: cmd.payload,
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

  const pump = () => {
    while (!stopped && active < concurrency) {
      active++;
      const p = runOne()
        .catch((error) => {
          ctx.log.error({ err: error }, 'command runner failed');
          return false;
        })
        .then((didWork) => {
          active--;
          inFlight.delete(p);
          if (didWork) pump();
        });
      inFlight.add(p);
      // One claim at a time is enough to learn whether there is work; more start once it finds some.
      if (active > 0) break;
    }
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
