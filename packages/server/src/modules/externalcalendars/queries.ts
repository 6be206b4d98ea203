import { externalCalendarType } from '@photorelay/contract/externalcalendars';
import { sql } from 'kysely';
import type { IcsEvent } from '../../adapters/ics/parse.ts';
import type { Db } from '../../db/kysely.ts';

// SQL of external calendars and their entries. Rows are mapped to domain shapes at this boundary.

export interface ExternalCalendarRecord {
  id: number;
  teamId: number;
  name: string;
  refname: string;
  type: string;
  url: string | null;
  etag: string | null;
  lastModified: string | null;
  refreshedAt: Date | null;
  lastError: string | null;
}

const calendarColumns = [
  'c.id',
  'c.team_id',
  'c.name',
  'c.refname',
  'c.type',
  'c.url',
  'c.etag',
  'c.last_modified',
  'c.refreshed_at',
  'c.last_error',
] as const;

type CalendarRow = {
  id: number;
  team_id: number;
  name: string;
  refname: string;
  type: string;
  url: string | null;
  etag: string | null;
  last_modified: string | null;
  refreshed_at: Date | null;
  last_error: string | null;
};
const calendarOf = (r: CalendarRow): ExternalCalendarRecord => ({
  id: r.id,
  teamId: r.team_id,
  name: r.name,
  refname: r.refname,
  type: r.type,
  url: r.url,
  etag: r.etag,
  lastModified: r.last_modified,
  refreshedAt: r.refreshed_at,
  lastError: r.last_error,
});

export const listExternalCalendars = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('calendars as c')
      .select(calendarColumns)
      .select((eb) =>
        eb
          .selectFrom('calendar_entries as e')
          .whereRef('e.calendar_id', '=', 'c.id')
          .select((e) => e.fn.countAll<string>().as('n'))
          .as('entry_count'),
      )
      .where('c.team_id', '=', teamId)
      .where('c.type', '<>', 'default')
      .orderBy('c.name')
      .orderBy('c.id')
      .execute()
  ).map((r) => ({ ...calendarOf(r), entryCount: Number(r.entry_count ?? 0) }));

/** The team's external calendars and the entries imported into them, `exceptCalendarId`'s left out. */
export async function countImported(db: Db, teamId: number, exceptCalendarId?: number) {
  let query = db
    .selectFrom('calendars as c')
    .leftJoin('calendar_entries as e', 'e.calendar_id', 'c.id')
    .select((eb) => [
      eb.fn.count<string>('c.id').distinct().as('calendars'),
      eb.fn.count<string>('e.id').as('entries'),
    ])
    .where('c.team_id', '=', teamId)
    .where('c.type', '<>', 'default');
  if (exceptCalendarId !== undefined) query = query.where('c.id', '<>', exceptCalendarId);
  const row = await query.executeTakeFirstOrThrow();
  return { calendars: Number(row.calendars), entries: Number(row.entries) };
}

export const findCalendar = async (db: Db, teamId: number, id: number) => {
  const row = await db
    .selectFrom('calendars as c')
    .select(calendarColumns)
    .where('c.team_id', '=', teamId)
    .where('c.id', '=', id)
    .executeTakeFirst();
  return row && calendarOf(row);
};

export const findCalendarByRefname = async (db: Db, teamId: number, refname: string) => {
  const row = await db
    .selectFrom('calendars as c')
    .select(calendarColumns)
    .where('c.team_id', '=', teamId)
    .where('c.refname', '=', refname)
    .executeTakeFirst();
  return row && calendarOf(row);
};

export const findCalendarsFolder = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('folders')
      .select('id')
      .where('team_id', '=', teamId)
      .where('type', '=', 'calendars')
      .where('parent_id', 'is', null)
      .orderBy('id')
      .executeTakeFirst()
  )?.id;

export const insertExternalCalendar = async (
  db: Db,
  c: {
    teamId: number;
    folderId: number;
    name: string;
    refname: string;
    url: string;
    etag: string | null;
    lastModified: string | null;
    refreshDueAt: Date;
  },
) =>
  (
    await db
      .insertInto('calendars')
      .values({
        team_id: c.teamId,
        folder_id: c.folderId,
        name: c.name,
        refname: c.refname,
        type: externalCalendarType,
        url: c.url,
        etag: c.etag,
        last_modified: c.lastModified,
        refreshed_at: new Date(),
        refresh_due_at: c.refreshDueAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

export const deleteCalendar = (db: Db, teamId: number, id: number) =>
  db.deleteFrom('calendars').where('team_id', '=', teamId).where('id', '=', id).execute();

/** After a fetch: the validators for the next conditional request, and no error. */
export const markRefreshed = (
  db: Db,
  id: number,
  v: {
    etag: string | null;
    lastModified: string | null;
    name?: string;
    changes?: { inserted: number; updated: number; removed: number };
  },
) =>
  db
    .updateTable('calendars')
    .set({
      etag: v.etag,
      last_modified: v.lastModified,
      refreshed_at: new Date(),
      last_error: null,
      ...(v.changes ? { last_changes: JSON.stringify(v.changes) } : {}),
      ...(v.name ? { name: v.name } : {}),
    })
    .where('id', '=', id)
    .execute();

export const markFailed = (db: Db, id: number, error: string) =>
  db
    .updateTable('calendars')
    .set({ last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();

// ---- the refresh lease (one refresh at a time per team) ----

/**
 * Takes the lease on one calendar unless a calendar of its team is being refreshed. The lease
 * runs out on its own, so a worker that died mid-refresh does not block the team for good.
 */
export const takeRefreshLease = async (db: Db, id: number, seconds: number) =>
  (
    await sql<{ id: number }>`
      update calendars c set refreshing_until = now() + make_interval(secs => ${seconds})
      where c.id = ${id}
        and not exists (
          select 1 from calendars o
          where o.team_id = c.team_id and o.refreshing_until > now() and o.type <> 'default'
        )
      returning c.id`.execute(db)
  ).rows.length > 0;

/** The next calendar whose hourly refresh is due, leased, with its next time already set (staggered). */
export const claimDueCalendar = async (
  db: Db,
  leaseSeconds: number,
  everySeconds: number,
  jitterSeconds: number,
) =>
  (
    await sql<{ id: number; team_id: number }>`
      update calendars c
      set refreshing_until = now() + make_interval(secs => ${leaseSeconds}),
          refresh_due_at = now() + make_interval(secs => ${everySeconds} + random() * ${jitterSeconds})
      where c.id = (
        select d.id from calendars d
        where d.type <> 'default' and d.refresh_due_at <= now()
          and not exists (
            select 1 from calendars o
            where o.team_id = d.team_id and o.refreshing_until > now() and o.type <> 'default'
          )
        order by d.refresh_due_at
        limit 1
        for update skip locked
      )
      returning c.id, c.team_id`.execute(db)
  ).rows[0];

export const releaseRefreshLease = (db: Db, id: number) =>
  db.updateTable('calendars').set({ refreshing_until: null }).where('id', '=', id).execute();

// ---- entries ----

export interface StoredExternalEntry {
  id: number;
  key: string;
  start: number;
  end: number;
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
}

export const entryKey = (uid: string, recurrenceId: string | null) => `${uid}\u0000${recurrenceId ?? ''}`;

export const listExternalEntries = async (db: Db, calendarId: number): Promise<StoredExternalEntry[]> =>
  (
    await db
      .selectFrom('calendar_entries')
      .select([
        'id',
        'external_uid',
        'recurrence_id',
        'start_at',
        'end_at',
        'all_day',
        'summary',
        'description',
        'location',
      ])
      .where('calendar_id', '=', calendarId)
      .execute()
  ).map((r) => ({
    id: r.id,
    key: entryKey(r.external_uid ?? '', r.recurrence_id),
    start: r.start_at.getTime(),
    end: r.end_at.getTime(),
    allDay: r.all_day,
    summary: r.summary,
    description: r.description,
    location: r.location,
  }));

const eventJson = (events: readonly (IcsEvent & { id?: number })[]) =>
  JSON.stringify(
    events.map((e) => ({
      id: e.id ?? null,
      uid: e.uid,
      rid: e.recurrenceId,
      s: e.start.toISOString(),
      e: e.end.toISOString(),
      a: e.allDay,
      summary: e.summary,
      description: e.description,
      location: e.location,
    })),
  );

const recordset = sql`(id int, uid text, rid text, s timestamptz, e timestamptz, a boolean, summary text, description text, location text)`;

/**
 * One statement per batch: a 10,000-event feed is a few inserts, not 10,000 round trips. The
 * events are unique by UID and recurrence id and new to the calendar (the service sees to both),
 * so no ON CONFLICT: its speculative insertion cost the database 15-20 % more CPU. `json`, not
 * `jsonb`: the rows are read once, and building jsonb's tree first cost about 10 % more.
 */
export const insertExternalEntries = async (
  db: Db,
  teamId: number,
  calendarId: number,
  events: readonly IcsEvent[],
) => {
  for (let i = 0; i < events.length; i += 5000) {
    await sql`
      insert into calendar_entries (team_id, calendar_id, external_uid, recurrence_id, start_at, end_at, all_day, summary, description, location)
      select ${teamId}, ${calendarId}, x.uid, x.rid, x.s, x.e, x.a, x.summary, x.description, x.location
      from json_to_recordset(${eventJson(events.slice(i, i + 5000))}::json) as x${recordset}`.execute(db);
  }
};

export const updateExternalEntries = async (db: Db, events: readonly (IcsEvent & { id: number })[]) => {
  for (let i = 0; i < events.length; i += 5000) {
    await sql`
      update calendar_entries c
      set start_at = x.s, end_at = x.e, all_day = x.a, summary = x.summary, description = x.description,
          location = x.location, updated_at = now()
      from json_to_recordset(${eventJson(events.slice(i, i + 5000))}::json) as x${recordset}
      where c.id = x.id`.execute(db);
  }
};

/** Team copies of these entries learn that their source changed (a vanished mark stays). */
export const markCopies = async (
  db: Db,
  teamId: number,
  sourceIds: readonly number[],
  status: 'changed' | 'vanished',
) => {
  for (let i = 0; i < sourceIds.length; i += 5000) {
    let query = db
      .updateTable('calendar_entries')
      .set({ source_status: status })
      .where('team_id', '=', teamId)
      .where('source_entry_id', 'in', sourceIds.slice(i, i + 5000));
    if (status === 'changed')
      query = query.where((eb) => eb('source_status', 'is', null).or('source_status', '=', 'changed'));
    await query.execute();
  }
};

export const deleteEntries = async (db: Db, calendarId: number, ids: readonly number[]) => {
  for (let i = 0; i < ids.length; i += 5000) {
    await db
      .deleteFrom('calendar_entries')
      .where('calendar_id', '=', calendarId)
      .where('id', 'in', ids.slice(i, i + 5000))
      .execute();
  }
};

/** Copies of a calendar's entries keep existing when it is deleted; they are marked vanished first. */
export const markCopiesOfCalendarVanished = (db: Db, teamId: number, calendarId: number) =>
  db
    .updateTable('calendar_entries')
    .set({ source_status: 'vanished' })
    .where('team_id', '=', teamId)
    .where('source_entry_id', 'in', (eb) =>
      eb.selectFrom('calendar_entries').select('id').where('calendar_id', '=', calendarId),
    )
    .execute();
