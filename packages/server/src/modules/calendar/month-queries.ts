import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { bookedName, type ListedBooking } from './booking-queries.ts';
import { type Entry, type EntryRow, entryOf } from './entry-queries.ts';

// The month listing (`POST calendar/entries`) in one statement that answers one text: a page of
// the entries of a date range (spec §9: 200) by ids and versions (migration 0027), the range's
// size, and in full only the page's entries that the caller's cache (month-cache.ts) does not
// hold at their current version. An entry read in full is its row's ready JSON texts (migration
// 0028: its columns, bookings and confirmers, kept by triggers) joined by the database, so the
// statement copies text instead of building it. With PGlite every row and text field crosses a
// process boundary and is decoded on the way: one text is the cheapest answer. The booked
// people's names: the team's members come with the statement unless the caller holds them at
// the team's shared version (the cache keeps them per team); anyone else booked (a former member)
// is looked up by `listPeople`. Every round trip to the database is a chance to wait for a CPU
// on a loaded machine: in the slowest 5 % of cold months the separate people's statement took
// 2.3 ms on average against 0.5 at the median.

/** An entry as the listing shows it, read with its version in the statement's snapshot. */
export interface VersionedEntry {
  entry: Entry;
  version: number;
  /** All its bookings, by id. */
  bookings: ListedBooking[];
  /** Who confirmed it. */
  confirmers: number[];
}

/** A booked person as bookings show them; `member`: still in the team (else kept nowhere). */
export interface Person {
  fullname: string;
  accreditationNumber: string | null;
  member: boolean;
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

/** `listed_bookings`' arrays (migration 0028's calendar_entries_relist()). */
type BookingValues = [
  id: number,
  userId: number,
  state: ListedBooking['state'],
  accreditation: ListedBooking['accreditation'],
  answer: ListedBooking['answer'],
  suggested: number,
  updatedAt: string,
];
/** Per entry read in full: its columns, [version, calendar type, folder], bookings, confirmers. */
type ReadValues = [
  unknown[],
  [number, EntryRow['calendar_type'], EntryRow['folder_id']],
  BookingValues[] | null,
  number[] | null,
];

/** An entry from its `listed` array, whose order is migration 0028's calendar_entry_listed(). */
function listedEntry(v: unknown[], calendar_type: EntryRow['calendar_type'], folder_id: number): Entry {
  // One object literal: every entry gets the same shape (Object.fromEntries made slow dictionaries).
  return entryOf({
    id: v[0],
    calendar_id: v[1],
    calendar_type,
    folder_id,
    start_at: v[2],
    end_at: v[3],
    all_day: v[4],
    summary: v[5],
    description: v[6],
    category: v[7],
    subcategory: v[8],
    scene: v[9],
    location: v[10],
    city: v[11],
    state: v[12],
    country: v[13],
    team1: v[14],
    team2: v[15],
    urgency: v[16],
    flags: v[17],
    cancelled_at: v[18],
    source_entry_id: v[19],
    source_status: v[20],
    external_uid: v[21],
  } as EntryRow);
}

/** Where the booked people's names come from (month-cache.ts keeps them per team). */
export interface PeopleSource {
  /** The team's shared version at which the caller holds the team's members, if it does. */
  heldAt?: number;
  /**
   * The people `userIds` at the team's shared version `shared`; `members` are the team's
   * members when the statement read them.
   */
  lookup(
    shared: number,
    userIds: Set<number>,
    members: ReadonlyMap<number, Person> | undefined,
  ): Promise<ReadonlyMap<number, Person>>;
}

/** `[id, first name, last name, email, accreditation number, …]` as the statements answer a person. */
type PersonValues = readonly [number, string, string, string, string | null, ...unknown[]];
const personOf = ([, first, last, email, accreditationNumber]: PersonValues, member: boolean): Person => ({
  fullname: bookedName(first, last, email),
  accreditationNumber,
  member,
});

/**
 * The range's page by start then id; its entries not in `known` at their versions come in full,
 * each with all its bookings (the people's names from `people`) and who confirmed it.
 */
export async function listMonth(
  db: Db,
  range: MonthRange,
  known: KnownEntries,
  people: PeopleSource,
): Promise<MonthPage> {
  if (range.calendarIds.length === 0) return { page: [], read: [], total: 0, calendars: 0, shared: 0 };
  const { rows } = await listMonthQuery(db, range, known, people.heldAt).execute(db);
  const row = rows[0];
  const shared = Number(row?.shared ?? 0);
  const read = JSON.parse(row?.read ?? '[]') as ReadValues[];
  const members = row?.members
    ? new Map((JSON.parse(row.members) as PersonValues[]).map((p) => [p[0], personOf(p, true)]))
    : undefined;
  const booked = new Set(read.flatMap(([, , bookings]) => (bookings ?? []).map((b) => b[1])));
  // Members read are handed over even when nobody is booked: the caller keeps them.
  const names =
    booked.size > 0 || members ? await people.lookup(shared, booked, members) : new Map<number, Person>();
  return {
    page: (JSON.parse(row?.page ?? '[]') as [number, number][]).map(([id, version]) => ({ id, version })),
    read: read.map(([values, [version, calendarType, folderId], bookings, confirmers]) => {
      const entry = listedEntry(values, calendarType, folderId);
      return {
        entry,
        version,
        bookings: (bookings ?? []).map(([id, userId, state, accreditation, answer, suggested, updatedAt]) => {
          const person = names.get(userId);
          return {
            id,
            entryId: entry.id,
            userId,
            fullname: person?.fullname ?? '',
            accreditationNumber: person?.accreditationNumber ?? null,
            state,
            accreditation,
            answer,
            suggested,
            updatedAt: new Date(updatedAt),
          };
        }),
        confirmers: confirmers ?? [],
      };
    }),
    total: row?.total ?? 0,
    calendars: row?.calendars ?? 0,
    shared,
  };
}

/**
 * Users by id as bookings show them, with their accreditation number in the team. One array
 * parameter and one text: the statement stays the same for any number of people (prepared once),
 * and the answer crosses to PGlite's process as one value (60 people: 1.2 -> 0.6 ms of PGlite CPU).
 */
export async function listPeople(db: Db, teamId: number, ids: readonly number[]) {
  const { rows } = await sql<{ people: string | null }>`
    select json_agg(json_build_array(
      u.id, u.first_name, u.last_name, u.email, m.accreditation_number, m.user_id is not null))::text as people
    from users u left join team_members m on m.team_id = ${teamId} and m.user_id = u.id
    where u.id = any(${[...ids]}::int[])`.execute(db);
  const people = JSON.parse(rows[0]?.people ?? '[]') as [
    number,
    string,
    string,
    string,
    string | null,
    boolean,
  ][];
  return new Map<number, Person>(people.map((p) => [p[0], personOf(p, p[5])]));
}

function listMonthQuery(
  db: Db,
  { teamId, calendarIds, from, to, page }: MonthRange,
  known: KnownEntries,
  peopleHeldAt: number | undefined,
) {
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
  const full = db
    .selectFrom('calendar_entries as e')
    .innerJoin('calendars as c', 'c.id', 'e.calendar_id')
    .select([
      'e.id',
      'e.version',
      'e.listed',
      'e.listed_bookings',
      'e.listed_confirmers',
      'c.type',
      'c.folder_id',
    ])
    .where('e.team_id', '=', teamId)
    .where(
      sql<boolean>`e.id = any(array(
        select p.id from p left join k on k.id = p.id
        where k.id is null or k.version <> p.version or k.shared <> (select v from t)))`,
    );
  return sql<{
    page: string | null;
    read: string | null;
    members: string | null;
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
    f as (${full})
    select (${total}) as total, (${calendars}) as calendars, (select v::float8 from t) as shared, (
      select json_agg(json_build_array(p.id, p.version) order by p.start_at, p.id)::text from p
    ) as page, (
      select '[' || string_agg(
        '[' || f.listed || ',' || json_build_array(f.version, f.type, f.folder_id)::text || ','
          || coalesce(f.listed_bookings, 'null') || ',' || coalesce(f.listed_confirmers, 'null') || ']',
        ',') || ']'
      from f
    ) as read, (
      select json_agg(json_build_array(u.id, u.first_name, u.last_name, u.email, m.accreditation_number))::text
      from team_members m join users u on u.id = m.user_id
      where m.team_id = ${teamId} and (select v from t) is distinct from ${peopleHeldAt ?? null}::bigint
    ) as members`;
}
