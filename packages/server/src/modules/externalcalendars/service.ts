import { randomBytes } from 'node:crypto';
import { AppError } from '@photorelay/contract/errors';
import {
  type ExternalCalendar,
  type ExternalCalendarCommandDetail,
  externalCalendarTexts,
} from '@photorelay/contract/externalcalendars';
import { limits } from '@photorelay/contract/limits';
import {
  fetchIcs,
  IcsFetchError,
  type IcsFetchOptions,
  normalizeCalendarUrl,
} from '../../adapters/ics/fetch.ts';
import { type IcsEvent, IcsLimitError, IcsParseError } from '../../adapters/ics/parse.ts';
import { readIcsInThread, type ThreadReader } from '../../adapters/ics/read-in-thread.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

// Use cases of external calendars: list, add by URL, refresh (by hand and hourly), delete.

const day = 86_400_000;
/** Occurrences are kept from a year back to two years ahead, within the calendar page's bounds. */
export const importWindow = { pastDays: 365, futureDays: 730 };
export const refreshEvery = { seconds: 3600, jitterSeconds: 600, leaseSeconds: 300 };

/** Tests reach feeds on loopback through this; production passes nothing. */
export interface FetchOverrides {
  checkHost?: IcsFetchOptions['checkHost'];
  timeoutMs?: number;
}

export function importRange(now = Date.now()) {
  const min = Date.parse(`${limits.calendarMin}T00:00:00Z`);
  const max = Date.parse(`${limits.calendarMax}T00:00:00Z`);
  return {
    from: new Date(Math.max(min, now - importWindow.pastDays * day)),
    to: new Date(Math.min(max, now + importWindow.futureDays * day)),
  };
}

const presentCalendar = (c: q.ExternalCalendarRecord & { entryCount: number }): ExternalCalendar => ({
  dbcalendarid: c.id,
  name: c.name,
  refname: c.refname,
  type: c.type,
  url: c.url ?? '',
  refreshedAt: c.refreshedAt?.toISOString() ?? null,
  lastError: c.lastError,
  entryCount: c.entryCount,
});

export async function listExternalCalendars(ctx: AppContext, member: Member) {
  requireTeamAdmin(member);
  return (await q.listExternalCalendars(ctx.db, member.teamId)).map(presentCalendar);
}

/** Only external calendars are deleted; the team's default calendar stays. Copies keep, marked vanished. */
export async function deleteExternalCalendar(ctx: AppContext, member: Member, id: number) {
  requireTeamAdmin(member);
  const calendar = await q.findCalendar(ctx.db, member.teamId, id);
  if (!calendar) throw new AppError('NotFound');
  if (calendar.type === 'default') throw new AppError('Conflict', externalCalendarTexts.defaultNotDeletable);
  await ctx.db.transaction().execute(async (trx) => {
    await q.markCopiesOfCalendarVanished(trx, member.teamId, id);
    await q.deleteCalendar(trx, member.teamId, id);
  });
}

/** A fetch or parse failure becomes a 400 whose text the add dialog shows under the URL field. */
function userFacing(error: unknown): unknown {
  if (error instanceof IcsFetchError || error instanceof IcsParseError) {
    return new AppError('ValidationError', error.message);
  }
  return error;
}

async function teamZone(ctx: AppContext, teamId: number): Promise<string> {
  const row = await ctx.db
    .selectFrom('teams')
    .select('time_zone')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row?.time_zone ?? 'Europe/Berlin';
}

function fetchOptions(ctx: AppContext, overrides: FetchOverrides, validators?: q.ExternalCalendarRecord) {
  return {
    allowPrivateNetworks: ctx.config.ALLOW_PRIVATE_NETWORKS,
    checkHost: overrides.checkHost,
    timeoutMs: overrides.timeoutMs,
    etag: validators?.etag,
    lastModified: validators?.lastModified,
  };
}

/**
 * Reads the feed on a thread of its own (parse and expansion), within the deadline and heap of
 * the config. The team's imported entries stay within `limits.importedEntriesPerTeam`: a feed
 * that would bring them over it is refused, not cut short.
 */
async function read(ctx: AppContext, text: string, zone: string, room: number): Promise<ThreadReader> {
  return readIcsInThread(text, {
    ...importRange(),
    defaultZone: zone,
    maxEvents: Math.max(0, room),
    refuseOverMaxEvents: true,
    timeMs: ctx.config.CALENDAR_READ_TIME_LIMIT_MS,
    memoryMb: ctx.config.CALENDAR_READ_MEMORY_LIMIT_MB,
  });
}

/** The entries a feed may bring in: the team's cap less what its other calendars hold. */
async function entryRoom(ctx: AppContext, teamId: number, calendarId?: number) {
  const imported = await q.countImported(ctx.db, teamId, calendarId);
  return limits.importedEntriesPerTeam - imported.entries;
}

/** The cap's error in the team's words instead of the reader's (which knows only the room left). */
function capError(error: unknown): unknown {
  if (error instanceof IcsLimitError && error.reason === 'tooManyEntries') {
    return new AppError('Conflict', externalCalendarTexts.tooManyEntries);
  }
  return error;
}

/**
 * The feed's occurrences as they come from its thread, one per UID and recurrence id (the first
 * wins: a feed may repeat an override, and entries are inserted without a conflict check per
 * row), in statements of `batchSize` rows; `counts.repeated` is complete at the end.
 */
async function* distinctBatches(reader: ThreadReader, counts: { repeated: number }) {
  const seen = new Set<string>();
  for await (const batch of reader.batches) {
    const fresh: IcsEvent[] = [];
    for (const event of batch) {
      const key = q.entryKey(event.uid, event.recurrenceId);
      if (seen.has(key)) counts.repeated++;
      else {
        seen.add(key);
        fresh.push(event);
      }
    }
    for (let at = 0; at < fresh.length; at += batchSize) yield fresh.slice(at, at + batchSize);
  }
}

/** Rows per statement: small enough that building and sending one is a short turn of the event loop. */
const batchSize = 250;

/**
 * All of a feed's occurrences, taken before a transaction starts: on PGlite the transaction holds
 * the one connection, and a slow feed must not hold it (and every other team's queries) while it
 * expands.
 */
async function takeAll(reader: ThreadReader) {
  const counts = { repeated: 0 };
  const batches: IcsEvent[][] = [];
  for await (const batch of distinctBatches(reader, counts)) batches.push(batch);
  return { batches, repeated: counts.repeated };
}

/** Command createexternalcalendar: fetch, read on its thread, store the calendar, then its entries as they come. */
export async function createExternalCalendar(
  ctx: AppContext,
  member: Member,
  calendarUrl: string,
  overrides: FetchOverrides = {},
): Promise<ExternalCalendarCommandDetail> {
  requireTeamAdmin(member);
  try {
    const url = normalizeCalendarUrl(calendarUrl).href;
    await requireCalendarRoom(ctx.db, member.teamId);
    const fetched = await fetchIcs(url, fetchOptions(ctx, overrides));
    if (fetched.status !== 'ok')
      throw new IcsFetchError('httpStatus', 'The server answered 304 without a calendar');
    const room = await entryRoom(ctx, member.teamId);
    const feed = await read(ctx, fetched.text, await teamZone(ctx, member.teamId), room);
    const folderId = await q.findCalendarsFolder(ctx.db, member.teamId);
    if (!folderId) throw new AppError('Conflict', 'The team has no calendar folder');
    const name = feed.name ?? new URL(url).hostname;
    const refname = `ext-${randomBytes(6).toString('hex')}`;
    let inserted = 0;
    // The calendar first (the cap checked in the same transaction), its entries after it one
    // statement at a time as the thread expands them: on PGlite a transaction holds the one
    // connection, and a 50,000-entry import in one held every team's queries (and /api/health)
    // for its whole length. A feed that fails half-way takes its calendar with it; the validators
    // are stored last, so an import cut off by a crash is read in full by the next refresh.
    const counts = { repeated: 0 };
    const id = await ctx.db.transaction().execute(async (trx) => {
      await requireCalendarRoom(trx, member.teamId);
      return q.insertExternalCalendar(trx, {
        teamId: member.teamId,
        folderId,
        name: name.slice(0, limits.folderName),
        refname,
        url,
        etag: null,
        lastModified: null,
        refreshDueAt: new Date(
          Date.now() + (refreshEvery.seconds + Math.random() * refreshEvery.jitterSeconds) * 1000,
        ),
      });
    });
    try {
      for await (const batch of distinctBatches(feed, counts)) {
        await q.insertExternalEntries(ctx.db, member.teamId, id, batch);
        inserted += batch.length;
      }
      await q.markRefreshed(ctx.db, id, { etag: fetched.etag, lastModified: fetched.lastModified });
    } catch (error) {
      await q.deleteCalendar(ctx.db, member.teamId, id).catch(() => {});
      throw error;
    }
    return {
      dbcalendarid: id,
      name,
      refname,
      notModified: false,
      inserted,
      updated: 0,
      removed: 0,
      skipped: feed.skipped + counts.repeated,
    };
  } catch (error) {
    throw userFacing(capError(error));
  }
}

/** A team has at most `limits.externalCalendarsPerTeam` feeds. */
async function requireCalendarRoom(db: Db, teamId: number) {
  const imported = await q.countImported(db, teamId);
  if (imported.calendars >= limits.externalCalendarsPerTeam) {
    throw new AppError('Conflict', externalCalendarTexts.tooManyCalendars);
  }
}

const sameEvent = (a: q.StoredExternalEntry, b: IcsEvent) =>
  a.start === b.start.getTime() &&
  a.end === b.end.getTime() &&
  a.allDay === b.allDay &&
  a.summary === b.summary &&
  a.description === b.description &&
  a.location === b.location;

/**
 * Brings a calendar's entries in line with its feed: changed occurrences are updated in place
 * (matched by UID and recurrence id, so bookings of team copies never move), new ones
 * inserted, gone ones deleted. Team copies of changed or gone entries are marked, not touched.
 * The caller holds the calendar's refresh lease.
 */
export async function syncCalendar(
  ctx: AppContext,
  calendar: q.ExternalCalendarRecord,
  overrides: FetchOverrides = {},
): Promise<ExternalCalendarCommandDetail> {
  const base = { dbcalendarid: calendar.id, name: calendar.name, refname: calendar.refname };
  try {
    const fetched = await fetchIcs(calendar.url ?? '', fetchOptions(ctx, overrides, calendar));
    if (fetched.status === 'notModified') {
      await q.markRefreshed(ctx.db, calendar.id, {
        etag: calendar.etag,
        lastModified: calendar.lastModified,
        changes: { inserted: 0, updated: 0, removed: 0 },
      });
      return { ...base, notModified: true, inserted: 0, updated: 0, removed: 0, skipped: 0 };
    }
    const zone = await teamZone(ctx, calendar.teamId);
    // The stored entries are read by the database while this process reads the feed's components.
    const storedRows = q.listExternalEntries(ctx.db, calendar.id);
    storedRows.catch(() => {});
    const feed = await read(ctx, fetched.text, zone, await entryRoom(ctx, calendar.teamId, calendar.id));
    const { batches, repeated } = await takeAll(feed);
    const stored = new Map((await storedRows).map((e) => [e.key, e]));
    let inserted = 0;
    let updated = 0;
    let removed: number[] = [];
    await ctx.db.transaction().execute(async (trx) => {
      for (const batch of batches) {
        const inserts: IcsEvent[] = [];
        const updates: (IcsEvent & { id: number })[] = [];
        for (const event of batch) {
          const key = q.entryKey(event.uid, event.recurrenceId);
          const old = stored.get(key);
          if (!old) inserts.push(event);
          else {
            stored.delete(key);
            if (!sameEvent(old, event)) updates.push({ ...event, id: old.id });
          }
        }
        await q.updateExternalEntries(trx, updates);
        await q.markCopies(
          trx,
          calendar.teamId,
          updates.map((u) => u.id),
          'changed',
        );
        await q.insertExternalEntries(trx, calendar.teamId, calendar.id, inserts);
        inserted += inserts.length;
        updated += updates.length;
      }
      // What is left was not in the feed.
      removed = [...stored.values()].map((e) => e.id);
      await q.markCopies(trx, calendar.teamId, removed, 'vanished');
      await q.deleteEntries(trx, calendar.id, removed);
      await q.markRefreshed(trx, calendar.id, {
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        name: feed.name ?? undefined,
        changes: { inserted, updated, removed: removed.length },
      });
    });
    return {
      ...base,
      name: feed.name ?? calendar.name,
      notModified: false,
      inserted,
      updated,
      removed: removed.length,
      skipped: feed.skipped + repeated,
    };
  } catch (error) {
    const failure = userFacing(capError(error));
    await q.markFailed(ctx.db, calendar.id, failure instanceof Error ? failure.message : String(failure));
    throw failure;
  }
}

/** Command updateexternalcalendar {calendarRefName}: one refresh by hand. */
export async function updateExternalCalendar(
  ctx: AppContext,
  member: Member,
  refname: string,
  overrides: FetchOverrides = {},
) {
  requireTeamAdmin(member);
  const calendar = await q.findCalendarByRefname(ctx.db, member.teamId, refname);
  if (!calendar || calendar.type === 'default') throw new AppError('NotFound');
  if (!(await q.takeRefreshLease(ctx.db, calendar.id, refreshEvery.leaseSeconds))) {
    throw new AppError('Conflict', externalCalendarTexts.refreshRunning);
  }
  try {
    return await syncCalendar(ctx, calendar, overrides);
  } finally {
    await q.releaseRefreshLease(ctx.db, calendar.id);
  }
}

/**
 * The hourly refresh: takes due calendars one at a time (never two of one team at once) until
 * none is due. Each calendar's next time is an hour plus up to ten minutes later, so a team's
 * feeds spread out instead of all hitting their servers at once.
 */
export async function refreshDueCalendars(ctx: AppContext, overrides: FetchOverrides = {}): Promise<number> {
  let done = 0;
  for (;;) {
    const due = await q.claimDueCalendar(
      ctx.db,
      refreshEvery.leaseSeconds,
      refreshEvery.seconds,
      refreshEvery.jitterSeconds,
    );
    if (!due) return done;
    try {
      const calendar = await q.findCalendar(ctx.db, due.team_id, due.id);
      if (calendar) await syncCalendar(ctx, calendar, overrides);
    } catch (error) {
      ctx.log.info({ calendar: due.id, err: (error as Error).message }, 'external calendar refresh failed');
    } finally {
      await q.releaseRefreshLease(ctx.db, due.id);
    }
    done++;
  }
}

/** The worker's loop for the hourly refresh. */
export function startExternalCalendarRefresh(ctx: AppContext, { pollMs = 60_000 } = {}) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = refreshDueCalendars(ctx)
      .catch((error) => ctx.log.error({ err: error }, 'external calendar refresh loop failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, pollMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
