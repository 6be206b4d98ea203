import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import {
  type BookingRecord,
  type BookingRow,
  bookingColumns,
  bookingOf,
  selectBookings,
} from './booking-queries.ts';
import { type Entry, type EntryRow, entryColumns, entryOf, selectEntries } from './entry-queries.ts';

// The month listing (`POST calendar/entries`) in one statement that answers one text: the entries
// of a date range, each with its bookings and confirmations, as JSON arrays the database builds.
// With PGlite every row and text field crosses a process boundary and is decoded on the way;
// on the bench (bench/calendar, 569 entries and 1,372 bookings) the entries, bookings and
// confirmations as rows took 2.7x as long as this one text, at the same load. Bookings and
// confirmations are read for the range's entries (the CTE `e`) through their indexes: `= any(array(
// select id from e))` is one array the planner looks up by index, where `in (select id from e)`
// made PostgreSQL hash-join a scan of every booking. They are grouped once, not per entry.

export interface MonthEntry {
  entry: Entry;
  bookings: BookingRecord[];
  confirmation: { count: number; mine: boolean };
}

/** The result name of a selected column: 'c.type as calendar_type' -> calendar_type, 'e.id' -> id. */
const nameOf = (column: string) => column.split(' as ').at(-1)?.split('.').at(-1) ?? column;
const entryNames = entryColumns.map(nameOf);
const bookingNames = bookingColumns.map(nameOf);
const array = (alias: string, names: readonly string[]) =>
  sql`json_build_array(${sql.join(names.map((name) => sql.ref(`${alias}.${name}`)))})`;
/** A JSON array back to the row it was built from (timestamps arrive as ISO text). */
const rowOf = <R>(names: readonly string[], values: unknown[]) =>
  Object.fromEntries(names.map((name, i) => [name, values[i]])) as R;

/**
 * Entries of `calendarIds` starting in [from, to), by start then id, each with its bookings (all,
 * or only `viewer`'s own when `ownOnly`) and whether `viewer` confirmed it.
 */
export async function listMonth(
  db: Db,
  teamId: number,
  calendarIds: number[],
  from: Date,
  to: Date,
  viewer: { userId: number; ownOnly: boolean },
): Promise<MonthEntry[]> {
  if (calendarIds.length === 0) return [];
  const { rows } = await listMonthQuery(db, teamId, calendarIds, from, to, viewer).execute(db);
  // Per entry: [entry fields, bookings (arrays) or null, confirmations, confirmed by the viewer].
  const month = JSON.parse(rows[0]?.month ?? '[]') as [unknown[], unknown[][] | null, number, boolean][];
  return month.map(([entry, bookings, count, mine]) => ({
    entry: entryOf(rowOf<EntryRow>(entryNames, entry)),
    bookings: (bookings ?? []).map((b) => bookingOf(rowOf<BookingRow>(bookingNames, b))),
    confirmation: { count, mine },
  }));
}

function listMonthQuery(
  db: Db,
  teamId: number,
  calendarIds: number[],
  from: Date,
  to: Date,
  viewer: { userId: number; ownOnly: boolean },
) {
  const entries = selectEntries(db, teamId)
    .where('e.calendar_id', 'in', calendarIds)
    .where('e.start_at', '>=', from)
    .where('e.start_at', '<', to);
  let bookings = selectBookings(db, teamId).where(sql<boolean>`b.entry_id = any(array(select id from e))`);
  if (viewer.ownOnly) bookings = bookings.where('b.user_id', '=', viewer.userId);
  return sql<{ month: string }>`
    with e as (${entries}),
    bk as (
      select x.entry_id, json_agg(${array('x', bookingNames)} order by x.id) as list
      from (${bookings}) x group by x.entry_id
    ),
    cf as (
      select x.entry_id, count(*)::int as n, bool_or(x.user_id = ${viewer.userId}) as mine
      from calendar_entry_confirmations x where x.entry_id = any(array(select id from e))
      group by x.entry_id
    )
    select json_agg(json_build_array(${array('e', entryNames)}, bk.list, coalesce(cf.n, 0), coalesce(cf.mine, false))
      order by e.start_at, e.id)::text as month
    from e
    left join bk on bk.entry_id = e.id
    left join cf on cf.entry_id = e.id`;
}
