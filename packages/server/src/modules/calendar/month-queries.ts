import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { ListedBooking } from './booking-queries.ts';
import { type Entry, type EntryRow, entryColumns, entryOf, selectEntries } from './entry-queries.ts';

// The month listing (`POST calendar/entries`) in one statement that answers one text: a page of
// the entries of a date range (spec §9: 200), each with its bookings and confirmations, as JSON
// arrays the database builds, and the range's size. With PGlite every row and text field crosses
// a process boundary and is decoded on the way; on the bench (bench/calendar) the entries,
// bookings and confirmations as rows took 2.7x as long as one text, at the same load. Bookings and
// confirmations are read for the page's entries (the CTE `e`) through their indexes: `= any(array(
// select id from e))` is one array the planner looks up by index, where `in (select id from e)`
// made PostgreSQL hash-join a scan of every booking. The page's bookings come as one list by
// entry (grouped here: a json_agg per entry cost PGlite ~1 ms of the statement's ~11). The
// booked people's names and accreditation numbers come once per person (`people`), not joined to
// every booking: PGlite spent a fifth of the statement's CPU time on those joins.

export interface MonthEntry {
  entry: Entry;
  bookings: ListedBooking[];
  confirmation: { count: number; mine: boolean };
}

/** A page of the range: its entries, how many the whole range holds, how many calendars are the team's. */
export interface MonthPage {
  entries: MonthEntry[];
  total: number;
  calendars: number;
}

/** The result name of a selected column: 'c.type as calendar_type' -> calendar_type, 'e.id' -> id. */
const nameOf = (column: string) => column.split(' as ').at(-1)?.split('.').at(-1) ?? column;
const entryNames = entryColumns.map(nameOf);
const bookingNames = [
  'id',
  'entry_id',
  'user_id',
  'state',
  'accreditation',
  'answer',
  'suggested',
  'updated_at',
];
const array = (alias: string, names: readonly string[]) =>
  sql`json_build_array(${sql.join(names.map((name) => sql.ref(`${alias}.${name}`)))})`;

type BookingValues = [
  number,
  number,
  number,
  ListedBooking['state'],
  ListedBooking['accreditation'],
  ListedBooking['answer'],
  number,
  string,
];
type Person = [
  id: number,
  firstName: string,
  lastName: string,
  email: string,
  accreditationNumber: string | null,
];

/**
 * Entries of `calendarIds` starting in [from, to), by start then id, `page.limit` of them from
 * `page.offset` (all without a limit), each with its bookings (all, or only `viewer`'s own when
 * `ownOnly`) and whether `viewer` confirmed it; `total` counts the whole range.
 */
export async function listMonth(
  db: Db,
  teamId: number,
  calendarIds: number[],
  from: Date,
  to: Date,
  viewer: { userId: number; ownOnly: boolean },
  page: { offset: number; limit?: number } = { offset: 0 },
): Promise<MonthPage> {
  if (calendarIds.length === 0) return { entries: [], total: 0, calendars: 0 };
  const { rows } = await listMonthQuery(db, teamId, calendarIds, from, to, viewer, page).execute(db);
  const row = rows[0];
  const people = new Map(
    (JSON.parse(row?.people ?? '[]') as Person[]).map(([id, first, last, email, number]) => [
      id,
      { fullname: `${first} ${last}`.trim() || email, accreditationNumber: number },
    ]),
  );
  // The page's bookings, by entry then id, as arrays; grouped per entry here, not by the database.
  const bookings = new Map<number, ListedBooking[]>();
  for (const values of JSON.parse(row?.bookings ?? '[]') as BookingValues[]) {
    const [id, entryId, userId, state, accreditation, answer, suggested, updatedAt] = values;
    const person = people.get(userId);
    const booking = {
      id,
      entryId,
      userId,
      fullname: person?.fullname ?? '',
      accreditationNumber: person?.accreditationNumber ?? null,
      state,
      accreditation,
      answer,
      suggested,
      updatedAt: new Date(updatedAt),
    };
    const list = bookings.get(entryId);
    if (list) list.push(booking);
    else bookings.set(entryId, [booking]);
  }
  // Per entry: [entry fields, confirmations, confirmed by the viewer].
  const month = JSON.parse(row?.month ?? '[]') as [unknown[], number, boolean][];
  return {
    entries: month.map(([values, count, mine]) => {
      const entry = entryOf(Object.fromEntries(entryNames.map((name, i) => [name, values[i]])) as EntryRow);
      return { entry, bookings: bookings.get(entry.id) ?? [], confirmation: { count, mine } };
    }),
    total: row?.total ?? 0,
    calendars: row?.calendars ?? 0,
  };
}

function listMonthQuery(
  db: Db,
  teamId: number,
  calendarIds: number[],
  from: Date,
  to: Date,
  viewer: { userId: number; ownOnly: boolean },
  page: { offset: number; limit?: number },
) {
  let entries = selectEntries(db, teamId)
    .where('e.calendar_id', 'in', calendarIds)
    .where('e.start_at', '>=', from)
    .where('e.start_at', '<', to)
    .orderBy('e.start_at')
    .orderBy('e.id')
    .offset(page.offset);
  if (page.limit !== undefined) entries = entries.limit(page.limit);
  // The range's size from the listing index (team, calendar, start).
  const total = db
    .selectFrom('calendar_entries as x')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('x.team_id', '=', teamId)
    .where('x.calendar_id', 'in', calendarIds)
    .where('x.start_at', '>=', from)
    .where('x.start_at', '<', to);
  // How many of `calendarIds` are the team's (the caller answers 404 unless all are).
  const calendars = db
    .selectFrom('calendars as k')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('k.team_id', '=', teamId)
    .where('k.id', 'in', calendarIds);
  let bookings = db
    .selectFrom('bookings as b')
    .select(bookingNames.map((name) => `b.${name}` as 'b.id'))
    .where('b.team_id', '=', teamId)
    .where(sql<boolean>`b.entry_id = any(array(select id from e))`);
  if (viewer.ownOnly) bookings = bookings.where('b.user_id', '=', viewer.userId);
  return sql<{
    month: string | null;
    people: string | null;
    bookings: string | null;
    total: number;
    calendars: number;
  }>`
    with e as (${entries}),
    bx as (${bookings}),
    cf as (
      select x.entry_id, count(*)::int as n, bool_or(x.user_id = ${viewer.userId}) as mine
      from calendar_entry_confirmations x where x.entry_id = any(array(select id from e))
      group by x.entry_id
    )
    select (${total}) as total, (${calendars}) as calendars, (
      select json_agg(json_build_array(u.id, u.first_name, u.last_name, u.email, m.accreditation_number))::text
      from users u left join team_members m on m.team_id = ${teamId} and m.user_id = u.id
      where u.id = any(array(select distinct user_id from bx))
    ) as people, (
      select json_agg(${array('x', bookingNames)} order by x.entry_id, x.id)::text from bx x
    ) as bookings, (
      select json_agg(json_build_array(${array('e', entryNames)}, coalesce(cf.n, 0), coalesce(cf.mine, false))
        order by e.start_at, e.id)::text
      from e
      left join cf on cf.entry_id = e.id
    ) as month`;
}
