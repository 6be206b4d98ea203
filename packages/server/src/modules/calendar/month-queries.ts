import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { ListedBooking } from './booking-queries.ts';
import { type Entry, type EntryRow, entryColumns, entryOf, selectEntries } from './entry-queries.ts';

// The month listing (`POST calendar/entries`) in one statement that answers one text: a page of
// the entries of a date range (spec §9: 200) by ids and versions (migration 0027), the range's
// size, and in full (with bookings and confirmations, as JSON arrays the database builds) only
// the page's entries that the caller's cache (month-cache.ts) does not hold at their current
// version. With PGlite every row and text field crosses a process boundary and is decoded on the
// way; on the bench (bench/calendar) the entries, bookings and confirmations as rows took 2.7x as
// long as one text, at the same load. Bookings are read for the entries read in full (the CTE
// `f`) through their index: `= any(array(select id from f))` is one array the planner looks up by
// index, where `in (select id from f)` made PostgreSQL hash-join a scan of every booking. They
// come as one list by entry (grouped here: a json_agg per entry cost PGlite ~1 ms of the
// statement's ~11). The booked people's names and accreditation numbers come once per person
// (`people`), not joined to every booking: PGlite spent a fifth of the statement's CPU on those joins.

/** An entry as the listing shows it, read with its version in the statement's snapshot. */
export interface VersionedEntry {
  entry: Entry;
  version: number;
  /** All its bookings, by id. */
  bookings: ListedBooking[];
  /** Who confirmed it. */
  confirmers: number[];
}

/** What the caller holds: entry ids with the entry's and the team's version they were read at. */
export interface KnownEntries {
  ids: number[];
  versions: number[];
  shared: number[];
}

/** A page of the team's entries of `calendarIds` starting in [from, to). */
export interface MonthRange {
  teamId: number;
  calendarIds: number[];
  from: Date;
  to: Date;
  /** `limit` entries from `offset` (all without a limit). */
  page: { offset: number; limit?: number };
}

/** One page of a range. */
export interface MonthPage {
  /** The page's entries in order. */
  page: Array<{ id: number; version: number }>;
  /** The page's entries the caller did not hold at these versions, in full. */
  read: VersionedEntry[];
  /** Entries in the whole range. */
  total: number;
  /** How many of the asked calendar ids are the team's (the caller answers 404 unless all are). */
  calendars: number;
  /** The team's `calendar_shared_version`. */
  shared: number;
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
 * The range's page by start then id; its entries not in `known` at their versions come in full,
 * each with all its bookings and who confirmed it.
 */
export async function listMonth(db: Db, range: MonthRange, known: KnownEntries): Promise<MonthPage> {
  if (range.calendarIds.length === 0) return { page: [], read: [], total: 0, calendars: 0, shared: 0 };
  const { rows } = await listMonthQuery(db, range, known).execute(db);
  const row = rows[0];
  const people = new Map(
    (JSON.parse(row?.people ?? '[]') as Person[]).map(([id, first, last, email, number]) => [
      id,
      { fullname: `${first} ${last}`.trim() || email, accreditationNumber: number },
    ]),
  );
  // The bookings, by entry then id, as arrays; grouped per entry here, not by the database.
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
  // Per entry read in full: [entry fields, version, confirming user ids].
  const read = JSON.parse(row?.read ?? '[]') as [unknown[], number, number[] | null][];
  return {
    page: (JSON.parse(row?.page ?? '[]') as [number, number][]).map(([id, version]) => ({ id, version })),
    read: read.map(([values, version, confirmers]) => {
      const entry = entryOf(Object.fromEntries(entryNames.map((name, i) => [name, values[i]])) as EntryRow);
      return { entry, version, bookings: bookings.get(entry.id) ?? [], confirmers: confirmers ?? [] };
    }),
    total: row?.total ?? 0,
    calendars: row?.calendars ?? 0,
    shared: Number(row?.shared ?? 0),
  };
}

function listMonthQuery(db: Db, { teamId, calendarIds, from, to, page }: MonthRange, known: KnownEntries) {
  const inRange = db
    .selectFrom('calendar_entries as e')
    .where('e.team_id', '=', teamId)
    .where('e.calendar_id', 'in', calendarIds)
    .where('e.start_at', '>=', from)
    .where('e.start_at', '<', to);
  let entries = inRange
    .select(['e.id', 'e.version', 'e.start_at'])
    .orderBy('e.start_at')
    .orderBy('e.id')
    .offset(page.offset);
  if (page.limit !== undefined) entries = entries.limit(page.limit);
  // The range's size from the listing index (team, calendar, start).
  const total = inRange.select(sql<number>`count(*)::int`.as('n'));
  const calendars = db
    .selectFrom('calendars as k')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('k.team_id', '=', teamId)
    .where('k.id', 'in', calendarIds);
  // The page's entries the caller does not hold at their version and the team's.
  const full = selectEntries(db, teamId)
    .select('e.version')
    .where(
      sql<boolean>`e.id = any(array(
        select p.id from p left join k on k.id = p.id
        where k.id is null or k.version <> p.version or k.shared <> (select v from t)))`,
    );
  const bookings = db
    .selectFrom('bookings as b')
    .select(bookingNames.map((name) => `b.${name}` as 'b.id'))
    .where('b.team_id', '=', teamId)
    .where(sql<boolean>`b.entry_id = any(array(select id from f))`);
  return sql<{
    page: string | null;
    read: string | null;
    people: string | null;
    bookings: string | null;
    total: number;
    calendars: number;
    shared: number;
  }>`
    with p as (${entries}),
    t as (select calendar_shared_version as v from teams where id = ${teamId}),
    k as (
      select * from unnest(${known.ids}::int[], ${known.versions}::bigint[], ${known.shared}::bigint[])
        as k(id, version, shared)
    ),
    f as (${full}),
    bx as (${bookings}),
    cf as (
      select x.entry_id, json_agg(x.user_id) as users from calendar_entry_confirmations x
      where x.entry_id = any(array(select id from f)) group by x.entry_id
    )
    select (${total}) as total, (${calendars}) as calendars, (select v::float8 from t) as shared, (
      select json_agg(json_build_array(p.id, p.version) order by p.start_at, p.id)::text from p
    ) as page, (
      select json_agg(json_build_array(u.id, u.first_name, u.last_name, u.email, m.accreditation_number))::text
      from users u left join team_members m on m.team_id = ${teamId} and m.user_id = u.id
      where u.id = any(array(select distinct user_id from bx))
    ) as people, (
      select json_agg(${array('x', bookingNames)} order by x.entry_id, x.id)::text from bx x
    ) as bookings, (
      select json_agg(json_build_array(${array('f', entryNames)}, f.version, cf.users))::text
      from f left join cf on cf.entry_id = f.id
    ) as read`;
}
