import { sql } from 'kysely';
import { type Db, isEmbedded } from '../../db/kysely.ts';
import { listMonth, type MonthPage } from './month-queries.ts';

// The month statement's results, kept in the server process for the EMBEDDED database only and
// checked on every request against `calendar_change_seq`, which triggers on every table the
// statement reads advance (migration 0026). The counter is read BEFORE the statement runs, so a
// change that lands in between makes the next request miss, never keeps a stale page.
// Sound on PGlite because it is one session whose dialect runs transactions one after another
// and holds other queries back until commit: a counter read never sees the nextval of a
// transaction that has not committed. On PostgreSQL it could (nextval is seen at once, the rows
// only at commit, and an earlier transaction may commit later), so the cache is off there;
// PostgreSQL meets the month's goal without it.

const capacity = 64;

interface Cache {
  pages: Map<string, { counter: number; page: MonthPage }>;
  stats: { hits: number; misses: number };
}
const caches = new WeakMap<Db, Cache>();

/** Hits and misses of `db`'s month cache (none on PostgreSQL): for tests and the bench. */
export const monthCacheStats = (db: Db) => ({ ...(caches.get(db)?.stats ?? { hits: 0, misses: 0 }) });

const readCounter = async (db: Db) =>
  Number(
    (
      await sql<{
        n: number;
      }>`select case when is_called then last_value else 0 end as n from calendar_change_seq`.execute(db)
    ).rows[0]?.n,
  );

/** `listMonth`, answered from the cache when nothing it reads has changed since (PGlite only). */
export async function cachedListMonth(...args: Parameters<typeof listMonth>): Promise<MonthPage> {
  const [db, teamId, calendarIds, from, to, viewer, page = { offset: 0 }] = args;
  if (!isEmbedded(db) || calendarIds.length === 0) return listMonth(...args);
  let cache = caches.get(db);
  if (!cache) {
    cache = { pages: new Map(), stats: { hits: 0, misses: 0 } };
    caches.set(db, cache);
  }
  // Everything the statement takes (the viewer's id always: it says which confirmation is theirs).
  const key = JSON.stringify([
    teamId,
    calendarIds,
    from.getTime(),
    to.getTime(),
    viewer.userId,
    viewer.ownOnly,
    page.offset,
    page.limit ?? null,
  ]);
  const counter = await readCounter(db);
  const cached = cache.pages.get(key);
  cache.pages.delete(key);
  if (cached && cached.counter === counter) {
    cache.stats.hits++;
    cache.pages.set(key, cached); // most recently used last
    return cached.page;
  }
  cache.stats.misses++;
  const result = await listMonth(...args);
  cache.pages.set(key, { counter, page: result });
  // Least recently used first: Map keeps insertion order.
  for (const oldest of cache.pages.keys()) {
    if (cache.pages.size <= capacity) break;
    cache.pages.delete(oldest);
  }
  return result;
}
