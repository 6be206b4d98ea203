import type { Db } from '../../db/kysely.ts';
import {
  type KnownEntries,
  listMonth,
  listPeople,
  type MonthRange,
  type PeopleSource,
  type Person,
} from './month-queries.ts';
import { type EntryParts, entryParts } from './present.ts';

// The listing's entries, kept presented (as JSON parts, see present.ts) per database and entry id,
// with the entry's version and the team's shared version they were read at, and the zone they were
// written in (migration 0027). A listing tells the month statement which of the range's entries it
// holds at which versions; the statement answers the page by ids and versions and, in full, only
// the entries whose versions moved, all in one snapshot. Exact on PGlite and PostgreSQL alike:
// every change of what an entry shows advances its version or the team's in the writing
// transaction, so one version means one content.

// About 2 KB each (the JSON parts and the bookings): 5,000 entries are ~10 MB, some 25 pages.
const capacity = 5_000;

interface Cached {
  parts: EntryParts;
  teamId: number;
  startAt: number;
  version: number;
  shared: number;
  zone: string;
}
interface Cache {
  entries: Map<number, Cached>;
  /** Per team, the booked people read at the team's shared version (members only: see below). */
  people: Map<number, { shared: number; byId: Map<number, Person> }>;
  stats: { hits: number; misses: number };
}
const caches = new WeakMap<Db, Cache>();

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), people: new Map(), stats: { hits: 0, misses: 0 } };
    caches.set(db, cache);
  }
  return cache;
}

/** Entries answered from `db`'s cache and read in full so far: for tests and the bench. */
export const monthCacheStats = (db: Db) => ({ ...(caches.get(db)?.stats ?? { hits: 0, misses: 0 }) });

/** Forgets every cached entry and person of `db` (the bench's cold month). */
export function clearMonthCache(db: Db) {
  caches.get(db)?.entries.clear();
  caches.get(db)?.people.clear();
}

const peopleTeams = 1_000;

/** Drops the least recently used (first in a Map's order) beyond `capacity`. */
function trim(map: Map<number, unknown>, capacity: number) {
  for (const oldest of map.keys()) {
    if (map.size <= capacity) break;
    map.delete(oldest);
  }
}

/**
 * The booked people, kept per team at the team's shared version: a member's name or
 * accreditation number advances it (migration 0027), so members are kept until it moves. The month
 * statement brings all members when this does not hold them at the current version. Someone no
 * longer in the team (or who joined since) changes nothing of it and is read by id: members are
 * kept, former members read every time (rare: bookings of a former member).
 */
function peopleOf(db: Db, cache: Cache, teamId: number): PeopleSource {
  return {
    heldAt: cache.people.get(teamId)?.shared,
    async lookup(shared, ids, members) {
      const current = cache.people.get(teamId);
      const held = members
        ? { shared, byId: new Map(members) }
        : current?.shared === shared
          ? current
          : { shared, byId: new Map<number, Person>() };
      const missing = [...ids].filter((id) => !held.byId.has(id));
      const read = missing.length > 0 ? await listPeople(db, teamId, missing) : undefined;
      for (const [id, person] of read ?? []) if (person.member) held.byId.set(id, person);
      cache.people.delete(teamId);
      cache.people.set(teamId, held);
      trim(cache.people, peopleTeams);
      return read ? new Map([...held.byId, ...read]) : held.byId;
    },
  };
}

/**
 * The range's page presented in `zone`, in order; `total` counts the range, `calendars` how many
 * of its calendar ids are the team's.
 */
export async function cachedMonth(
  db: Db,
  range: MonthRange,
  zone: string,
): Promise<{ entries: EntryParts[]; total: number; calendars: number }> {
  const { teamId, from, to } = range;
  const cache = cacheOf(db);
  // What this listing holds is kept here too: a concurrent listing may evict or replace it meanwhile.
  const held = new Map<number, Cached>();
  const known: KnownEntries = { ids: [], versions: [], shared: [] };
  const [start, end] = [from.getTime(), to.getTime()];
  for (const [id, c] of cache.entries)
    if (c.teamId === teamId && c.startAt >= start && c.startAt < end && c.zone === zone) {
      held.set(id, c);
      known.ids.push(id);
      known.versions.push(c.version);
      known.shared.push(c.shared);
    }
  const month = await listMonth(db, range, known, peopleOf(db, cache, teamId));
  const read = new Map<number, EntryParts>();
  for (const entry of month.read) {
    const parts = entryParts(entry, zone);
    read.set(entry.entry.id, parts);
    const startAt = entry.entry.startAt.getTime();
    cache.entries.delete(entry.entry.id);
    cache.entries.set(entry.entry.id, {
      parts,
      teamId,
      startAt,
      version: entry.version,
      shared: month.shared,
      zone,
    });
  }
  const entries = month.page.flatMap(({ id }) => {
    const fresh = read.get(id);
    if (fresh) return [fresh];
    const cached = held.get(id);
    if (!cached) return []; // the statement reads in full whatever was not held
    // Most recently used last (Map keeps insertion order), unless replaced meanwhile.
    if (cache.entries.get(id) === cached) {
      cache.entries.delete(id);
      cache.entries.set(id, cached);
    }
    return [cached.parts];
  });
  cache.stats.hits += month.page.length - read.size;
  cache.stats.misses += read.size;
  trim(cache.entries, capacity);
  return { entries, total: month.total, calendars: month.calendars };
}
