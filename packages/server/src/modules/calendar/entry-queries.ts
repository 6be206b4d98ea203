import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

// SQL of calendars and entries. Rows are mapped to the domain shapes below at this boundary.

export interface CalendarInfo {
  id: number;
  folderId: number;
  name: string;
  refname: string;
  type: string;
  url: string | null;
  refreshedAt: Date | null;
  lastChanges: { inserted: number; updated: number; removed: number } | null;
  lastError: string | null;
}

export interface Entry {
  id: number;
  calendarId: number;
  calendarType: string;
  folderId: number;
  startAt: Date;
  endAt: Date;
  allDay: boolean;
  summary: string;
  description: string;
  category: string;
  subcategory: string;
  scene: string;
  location: string;
  city: string;
  state: string;
  country: string;
  team1: string;
  team2: string;
  urgency: number | null;
  flags: number;
  cancelledAt: Date | null;
  sourceEntryId: number | null;
  sourceStatus: string | null;
  externalUid: string | null;
}

export interface EntryValues {
  start_at: Date;
  end_at: Date;
  all_day: boolean;
  summary: string;
  description: string;
  category: string;
  subcategory: string;
  scene: string;
  location: string;
  city: string;
  state: string;
  country: string;
  team1: string;
  team2: string;
  urgency: number | null;
  flags: number;
}

const calendarColumns = [
  'id',
  'folder_id',
  'name',
  'refname',
  'type',
  'url',
  'refreshed_at',
  'last_changes',
  'last_error',
] as const;

const calendarOf = (r: {
  id: number;
  folder_id: number;
  name: string;
  refname: string;
  type: string;
  url: string | null;
  refreshed_at: Date | null;
  last_changes: unknown;
  last_error: string | null;
}): CalendarInfo => ({
  id: r.id,
  folderId: r.folder_id,
  name: r.name,
  refname: r.refname,
  type: r.type,
  url: r.url,
  refreshedAt: r.refreshed_at,
  lastChanges: (r.last_changes ?? null) as CalendarInfo['lastChanges'],
  lastError: r.last_error,
});

export const listCalendars = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('calendars')
      .select(calendarColumns)
      .where('team_id', '=', teamId)
      .orderBy(sql`type <> 'default'`)
      .orderBy('name')
      .orderBy('id')
      .execute()
  ).map(calendarOf);

export const findCalendar = async (db: Db, teamId: number, id: number) => {
  const row = await db
    .selectFrom('calendars')
    .select(calendarColumns)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && calendarOf(row);
};

export const findDefaultCalendar = async (db: Db, teamId: number) => {
  const row = await db
    .selectFrom('calendars')
    .select(calendarColumns)
    .where('team_id', '=', teamId)
    .where('type', '=', 'default')
    .orderBy('id')
    .executeTakeFirst();
  return row && calendarOf(row);
};

export const findTeamTimeZone = async (db: Db, teamId: number) =>
  (await db.selectFrom('teams').select('time_zone').where('id', '=', teamId).executeTakeFirstOrThrow())
    .time_zone;

export const setTeamTimeZone = (db: Db, teamId: number, zone: string) =>
  db.updateTable('teams').set({ time_zone: zone }).where('id', '=', teamId).execute();

export const entryColumns = [
  'e.id',
  'e.calendar_id',
  'c.type as calendar_type',
  'c.folder_id',
  'e.start_at',
  'e.end_at',
  'e.all_day',
  'e.summary',
  'e.description',
  'e.category',
  'e.subcategory',
  'e.scene',
  'e.location',
  'e.city',
  'e.state',
  'e.country',
  'e.team1',
  'e.team2',
  'e.urgency',
  'e.flags',
  'e.cancelled_at',
  'e.source_entry_id',
  'e.source_status',
  'e.external_uid',
] as const;

export const selectEntries = (db: Db, teamId: number) =>
  db
    .selectFrom('calendar_entries as e')
    .innerJoin('calendars as c', 'c.id', 'e.calendar_id')
    .select(entryColumns)
    .where('e.team_id', '=', teamId);

export type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['executeTakeFirstOrThrow']>>;
export const entryOf = (r: EntryRow): Entry => ({
  id: r.id,
  calendarId: r.calendar_id,
  calendarType: r.calendar_type,
  folderId: r.folder_id,
  startAt: new Date(r.start_at),
  endAt: new Date(r.end_at),
  allDay: r.all_day,
  summary: r.summary,
  description: r.description,
  category: r.category,
  subcategory: r.subcategory,
  scene: r.scene,
  location: r.location,
  city: r.city,
  state: r.state,
  country: r.country,
  team1: r.team1,
  team2: r.team2,
  urgency: r.urgency,
  flags: r.flags,
  cancelledAt: r.cancelled_at ? new Date(r.cancelled_at) : null,
  sourceEntryId: r.source_entry_id,
  sourceStatus: r.source_status,
  externalUid: r.external_uid,
});

export const listEntriesByIds = async (db: Db, teamId: number, ids: number[]) => {
  if (ids.length === 0) return [];
  const rows = await selectEntries(db, teamId)
    .where('e.id', 'in', ids)
    .orderBy('e.start_at')
    .orderBy('e.id')
    .execute();
  return rows.map(entryOf);
};

export const findEntry = async (db: Db, teamId: number, id: number) => {
  const row = await selectEntries(db, teamId).where('e.id', '=', id).executeTakeFirst();
  return row && entryOf(row);
};

export const insertEntry = async (
  db: Db,
  teamId: number,
  calendarId: number,
  values: EntryValues & { source_entry_id?: number | null },
  createdBy: number,
) =>
  (
    await db
      .insertInto('calendar_entries')
      .values({ team_id: teamId, calendar_id: calendarId, created_by: createdBy, ...values })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

export const updateEntry = async (db: Db, teamId: number, id: number, values: EntryValues) =>
  (
    await db
      .updateTable('calendar_entries')
      .set({ ...values, updated_at: sql`now()` })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst()
  ).numUpdatedRows > 0n;

export const deleteEntry = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('calendar_entries').where('team_id', '=', teamId).where('id', '=', id).execute();

/**
 * Locks the team's entries `ids` (in id order) for a transaction that writes their bookings or
 * confirmations, and answers the ids that exist. Those writes advance the entry's version (its
 * row, migration 0027), and a deleted entry takes its bookings with it: taking the entry first,
 * as the delete does, keeps one lock order on PostgreSQL (no deadlock) and turns a race with a
 * delete into "not found" instead of a foreign key error.
 */
export const lockEntries = async (db: Db, teamId: number, ids: readonly number[]) =>
  ids.length === 0
    ? []
    : (
        await db
          .selectFrom('calendar_entries')
          .select('id')
          .where('team_id', '=', teamId)
          .where('id', 'in', ids)
          .orderBy('id')
          .forNoKeyUpdate()
          .execute()
      ).map((r) => r.id);

/** Sets or clears one flag bit in one statement, so two people ticking different boxes both win. */
export const setFlag = async (db: Db, teamId: number, id: number, bit: number, value: boolean) => {
  const mask = 1 << bit;
  const row = await db
    .updateTable('calendar_entries')
    .set({
      flags: value ? sql`flags | ${mask}` : sql`flags & ${~mask}`,
      updated_at: sql`now()`,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returning('flags')
    .executeTakeFirst();
  return row?.flags;
};

export const markCancelled = (db: Db, teamId: number, id: number) =>
  db
    .updateTable('calendar_entries')
    .set({ cancelled_at: sql`coalesce(cancelled_at, now())`, updated_at: sql`now()` })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();

export const insertConfirmation = (db: Db, entryId: number, userId: number) =>
  db
    .insertInto('calendar_entry_confirmations')
    .values({ entry_id: entryId, user_id: userId })
    .onConflict((oc) => oc.columns(['entry_id', 'user_id']).doNothing())
    .execute();

/** Per entry: how many confirmed, and whether `userId` did. */
export const listConfirmations = async (db: Db, entryIds: number[], userId: number) => {
  const result = new Map<number, { count: number; mine: boolean }>();
  if (entryIds.length === 0) return result;
  const rows = await db
    .selectFrom('calendar_entry_confirmations')
    .select([
      'entry_id',
      sql<number>`count(*)::int`.as('n'),
      sql<boolean>`bool_or(user_id = ${userId})`.as('mine'),
    ])
    .where('entry_id', 'in', entryIds)
    .groupBy('entry_id')
    .execute();
  for (const r of rows) result.set(r.entry_id, { count: Number(r.n), mine: Boolean(r.mine) });
  return result;
};

/** The entry's version (migration 0027): it rises with every change, so it is the invitation's SEQUENCE. */
export const findEntryVersion = async (db: Db, teamId: number, id: number) =>
  Number(
    (
      await db
        .selectFrom('calendar_entries')
        .select('version')
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).version,
  );
