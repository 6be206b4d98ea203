import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './kysely.ts';

/**
 * The embedded PGlite has no autovacuum (one session, no background workers): without this its
 * planner never has statistics (a calendar month took ~25 % longer without them) and the dead rows
 * of often-updated tables (jobs, commands, sessions) are never reclaimed. On a PostgreSQL server
 * autovacuum does this, so only the embedded database runs it.
 */
export async function vacuumAnalyze(db: Db): Promise<void> {
  await sql`vacuum (analyze)`.execute(db);
}

const minute = 60_000;

/** Runs `vacuumAnalyze` a minute after start (not in the way of start-up) and then every hour. */
export function startEmbeddedMaintenance(
  db: Db,
  log: Logger,
  options: { firstAfterMs?: number; everyMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped) return;
    running = (async () => {
      const started = Date.now();
      try {
        await vacuumAnalyze(db);
        log.debug({ ms: Date.now() - started }, 'embedded database vacuumed and analyzed');
      } catch (error) {
        log.warn({ error: String(error) }, 'embedded database maintenance failed');
      }
    })();
  };
  const first = setTimeout(run, options.firstAfterMs ?? minute);
  const every = setInterval(run, options.everyMs ?? 60 * minute);
  first.unref();
  every.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
