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
  // The named statements (pglite-statements.ts) plan afresh with the new statistics.
  await sql`discard plans`.execute(db);
}

/** Pages (8 kB) of each table of ours now; an empty table counts as one page. */
export async function tablePages(db: Db): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; bytes: number }>`
    select c.relname as name, pg_relation_size(c.oid)::int8 as bytes from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`.execute(db);
  return new Map(rows.map((r) => [r.name, Math.max(1, Math.ceil(Number(r.bytes) / 8192))]));
}

/** A table ten times larger or smaller than when the planner last saw it. */
const tenfold = (now: number, then: number) => now >= then * 10 || now * 10 <= then;

/**
 * What autovacuum's auto-analyze does on a server, for a table whose size changed tenfold since
 * `seen` (its pages when last analyzed): analyzes it and drops the cached plans. A named
 * statement's generic plan, made for a nearly empty table, stays otherwise until the next hourly
 * maintenance: a fresh install's first busy event had its delivery claim at 1.6 s a run instead
 * of 1.5 ms (issue 29). Updates `seen`; returns the tables analyzed.
 */
export async function analyzeChangedTables(db: Db, seen: Map<string, number>): Promise<string[]> {
  const now = await tablePages(db);
  const changed = [...now].filter(([name, pages]) => tenfold(pages, seen.get(name) ?? pages));
  for (const [name, pages] of now) if (!seen.has(name)) seen.set(name, pages);
  if (changed.length === 0) return [];
  await sql`analyze ${sql.join(changed.map(([name]) => sql.id(name)))}`.execute(db);
  await sql`discard plans`.execute(db);
  for (const [name, pages] of changed) seen.set(name, pages);
  return changed.map(([name]) => name);
}

const minute = 60_000;

/**
 * Runs `vacuumAnalyze` a minute after start (not in the way of start-up) and then every hour;
 * between them, every `watchMs`, `analyzeChangedTables`.
 */
export function startEmbeddedMaintenance(
  db: Db,
  log: Logger,
  options: { firstAfterMs?: number; everyMs?: number; watchMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Each table's pages when it was last analyzed (or first seen). */
  let seen = new Map<string, number>();
  const run = (what: 'all' | 'changed') => {
    if (stopped) return;
    // One at a time: a slow vacuum is not joined by the size watch.
    running = running.then(async () => {
      if (stopped) return;
      const started = Date.now();
      try {
        if (what === 'all') {
          await vacuumAnalyze(db);
          seen = await tablePages(db);
          log.debug({ ms: Date.now() - started }, 'embedded database vacuumed and analyzed');
        } else {
          const tables = await analyzeChangedTables(db, seen);
          if (tables.length)
            log.debug({ tables, ms: Date.now() - started }, 'tables analyzed after a tenfold change');
        }
      } catch (error) {
        log.warn({ error: String(error) }, 'embedded database maintenance failed');
      }
    });
  };
  const first = setTimeout(() => run('all'), options.firstAfterMs ?? minute);
  const every = setInterval(() => run('all'), options.everyMs ?? 60 * minute);
  const watch = setInterval(() => run('changed'), options.watchMs ?? 10_000);
  first.unref();
  every.unref();
  watch.unref();
  run('changed');
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      clearInterval(watch);
      await running;
    },
  };
}
