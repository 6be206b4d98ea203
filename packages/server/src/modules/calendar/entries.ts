import type { CalendarEntryBody } from '@photorelay/contract/calendar';
import { eventTexts } from '@photorelay/contract/calendar';
import { AppError } from '@photorelay/contract/errors';
import { limits } from '@photorelay/contract/limits';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import { type Access, loadAccess, requireTeamAdmin } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as bq from './booking-queries.ts';
import type { Entry } from './entry-queries.ts';
import * as q from './entry-queries.ts';
import { type FollowUpRecipient, sendFollowUps } from './event-mails.ts';
import { requireTeamFlags } from './flags.ts';
import { cachedMonth } from './month-cache.ts';
import { isPlanner, listingJson, presentEntry } from './present.ts';
import { dayStart, fromLocal, hoursAfter, inZone, monthAfter } from './time.ts';

// Use cases of calendars and entries: list, read, create, change, delete, copy, confirm, cancel, flags.

/** A photographer sees default calendars they may read; owners and operators see all. */
function canSee(access: Access, member: Member, calendar: { type: string; folderId: number }) {
  if (isPlanner(member)) return true;
  return calendar.type === 'default' && access.can(calendar.folderId, 'read');
}

const presentCalendar = (c: q.CalendarInfo, member: Member) => ({
  dbcalendarid: c.id,
  name: c.name,
  refname: c.refname,
  type: c.type,
  url: isPlanner(member) ? c.url : null,
  folderId: c.folderId,
  ...(isPlanner(member) && c.type !== 'default'
    ? {
        refreshedAt: c.refreshedAt?.toISOString() ?? null,
        lastChanges: c.lastChanges,
        lastError: c.lastError,
      }
    : {}),
});

export async function listCalendars(ctx: AppContext, member: Member) {
  const [access, calendars, timeZone] = await Promise.all([
    loadAccess(ctx.db, member),
    q.listCalendars(ctx.db, member.teamId),
    q.findTeamTimeZone(ctx.db, member.teamId),
  ]);
  return {
    calendars: calendars.filter((c) => canSee(access, member, c)).map((c) => presentCalendar(c, member)),
    timeZone,
  };
}

export async function getCalendar(ctx: AppContext, member: Member, id: number) {
  const calendar = await q.findCalendar(ctx.db, member.teamId, id);
  if (!calendar || !canSee(await loadAccess(ctx.db, member), member, calendar))
    throw new AppError('NotFound');
  return presentCalendar(calendar, member);
}

/** Entries with their bookings (all, or the member's own) and confirmations, presented in the team's zone. */
export async function presentEntries(db: Db, member: Member, entries: q.Entry[], zone: string) {
  const ids = entries.map((e) => e.id);
  const [bookings, confirmations] = await Promise.all([
    bq.listBookings(db, member.teamId, ids, isPlanner(member) ? undefined : member.userId),
    q.listConfirmations(db, ids, member.userId),
  ]);
  const byEntry = new Map<number, bq.BookingRecord[]>();
  for (const b of bookings) {
    const list = byEntry.get(b.entryId);
    if (list) list.push(b);
    else byEntry.set(b.entryId, [b]);
  }
  return entries.map((e) => presentEntry(e, zone, member, byEntry.get(e.id) ?? [], confirmations.get(e.id)));
}

export async function listEntries(
  ctx: AppContext,
  member: Member,
  body: { calendarIds: number[]; startDate: string; endDate?: string; offset?: number; limit?: number },
) {
  const calendarIds = [...new Set(body.calendarIds)];
  // Owners and operators see every calendar of the team: the month statement itself says whether
  // all the ids are the team's. A photographer's calendars depend on folder rights.
  if (!isPlanner(member)) {
    const [access, calendars] = await Promise.all([
      loadAccess(ctx.db, member),
      q.listCalendars(ctx.db, member.teamId),
    ]);
    const visible = new Set(calendars.filter((c) => canSee(access, member, c)).map((c) => c.id));
    if (calendarIds.some((id) => !visible.has(id))) throw unknownCalendar();
  }
  const zone = member.teamTimeZone;
  const from = dayStart(body.startDate, zone);
  const to = body.endDate ? dayStart(body.endDate, zone) : monthAfter(from, zone);
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  if (days <= 0 || days > limits.calendarListMaxDays)
    throw new AppError(
      'ValidationError',
      `endDate must be after startDate and at most ${limits.calendarListMaxDays} days later`,
    );
  // One page of the table (spec §9: 200), not the whole range: the answer stays small.
  const offset = body.offset ?? 0;
  const page = { offset, limit: body.limit ?? limits.calendarPageSize };
  const month = await cachedMonth(ctx.db, { teamId: member.teamId, calendarIds, from, to, page }, zone);
  if (month.calendars !== calendarIds.length) throw unknownCalendar();
  const next = offset + month.entries.length;
  return listingJson(month.entries, member, {
    timeZone: zone,
    total: month.total,
    nextOffset: next < month.total && month.entries.length > 0 ? next : null,
  });
}

/** Another team's calendar, or one hidden from this member, does not exist for them. */
const unknownCalendar = () => new AppError('NotFound', 'Unknown calendar');

/** An entry the member may see (a photographer: only in a default calendar they can read). */
export async function requireEntry(db: Db, member: Member, id: number) {
  const entry = await q.findEntry(db, member.teamId, id);
  if (
    !entry ||
    !canSee(await loadAccess(db, member), member, { type: entry.calendarType, folderId: entry.folderId })
  )
    throw new AppError('NotFound');
  return entry;
}

export async function getEntry(ctx: AppContext, member: Member, id: number) {
  const entry = await requireEntry(ctx.db, member, id);
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const [presented] = await presentEntries(ctx.db, member, [entry], zone);
  return presented;
}

/** Only the team's own ('default') entries are edited here; external ones follow their feed. */
function requireDefault(type: string) {
  if (type !== 'default') throw new AppError('Conflict', 'Entries of external calendars cannot be changed');
}

/** The row values of a body: start and end as instants (local fields read in the team's zone). */
export function entryValues(body: CalendarEntryBody, zone: string): q.EntryValues {
  const start = body.startdatetime
    ? new Date(body.startdatetime)
    : fromLocal(body.startDate ?? '', body.startTime ?? '', zone);
  let end: Date;
  if (body.enddatetime) end = new Date(body.enddatetime);
  else if (body.endDate && body.endTime) end = fromLocal(body.endDate, body.endTime, zone);
  else end = hoursAfter(start, limits.eventDefaultHours);
  if (Number.isNaN(start.getTime())) throw new AppError('ValidationError', eventTexts.invalidDate);
  const localDay = inZone(start, zone).day;
  if (localDay < limits.calendarMin || localDay > limits.calendarMax)
    throw new AppError('ValidationError', eventTexts.outOfRange);
  if (end.getTime() < start.getTime()) throw new AppError('ValidationError', eventTexts.endBeforeStart);
  // Spec §5: for team events the summary becomes 'team1 - team2'.
  const summary = body.team1 && body.team2 ? `${body.team1} - ${body.team2}` : body.summary;
  return {
    start_at: start,
    end_at: end,
    all_day: body.allDay ?? false,
    summary,
    description: body.description,
    category: body.category,
    subcategory: body.subcategory,
    scene: body.scene,
    location: body.location,
    city: body.city,
    state: body.state,
    country: body.country,
    team1: body.team1,
    team2: body.team2,
    urgency: body.urgency ?? null,
    flags: body.flags ?? 0,
  };
}

export async function createEntry(
  ctx: AppContext,
  member: Member,
  calendarId: number,
  body: CalendarEntryBody,
) {
  requireTeamAdmin(member);
  const calendar = await q.findCalendar(ctx.db, member.teamId, calendarId);
  if (!calendar) throw new AppError('NotFound');
  requireDefault(calendar.type);
  // Made from an external entry in the event dialog (issue 27 item 8): remembered like a copy's
  // source, so a later import can say the original changed.
  let source: number | null = null;
  if (body.sourceEntryId !== undefined) {
    const external = await q.findEntry(ctx.db, member.teamId, body.sourceEntryId);
    if (!external) throw new AppError('NotFound');
    if (external.calendarType === 'default')
      throw new AppError('ValidationError', 'The source must be an entry of an external calendar');
    source = external.id;
  }
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const values = { ...entryValues(body, zone), source_entry_id: source };
  if (values.flags !== 0) await requireTeamFlags(ctx.db, member.teamId, values.flags);
  return q.insertEntry(ctx.db, member.teamId, calendar.id, values, member.userId);
}

export async function updateEntry(
  ctx: AppContext,
  member: Member,
  calendarId: number,
  id: number,
  body: CalendarEntryBody,
) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, id);
  if (!entry || entry.calendarId !== calendarId) throw new AppError('NotFound');
  requireDefault(entry.calendarType);
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const values = entryValues(body, zone);
  if (body.flags !== undefined && body.flags !== entry.flags)
    await requireTeamFlags(ctx.db, member.teamId, body.flags);
  // The flags have their own call (saved at once per box); a body without them keeps them.
  await q.updateEntry(ctx.db, member.teamId, id, { ...values, flags: body.flags ?? entry.flags });
  const changed = await q.findEntry(ctx.db, member.teamId, id);
  if (changed && changed.cancelledAt === null && shownInCalendars(changed) !== shownInCalendars(entry)) {
    const sequence = await q.findEntryVersion(ctx.db, member.teamId, id);
    const recipients = await followUpRecipients(ctx, member, id, { invitedOnly: true });
    await sendFollowUps(ctx, member.teamName, 'changed', { entry: changed, zone, sequence }, recipients);
  }
  return getEntry(ctx, member, id);
}

export async function deleteEntry(ctx: AppContext, member: Member, id: number) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, id);
  if (!entry) throw new AppError('NotFound');
  requireDefault(entry.calendarType);
  // The bookings go with the entry: whom to tell is read first. A cancelled event was told already.
  const recipients =
    entry.cancelledAt === null ? await followUpRecipients(ctx, member, id, { invitedOnly: false }) : [];
  const sequence = (await q.findEntryVersion(ctx.db, member.teamId, id)) + 1;
  await q.deleteEntry(ctx.db, member.teamId, id);
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  await sendFollowUps(ctx, member.teamName, 'cancelled', { entry, zone, sequence }, recipients);
}

/**
 * Who hears of a change of the event: everyone booked or still invited (not declined, not
 * cancelled); `invitedOnly` keeps those who got an invitation (only they have the event in their
 * calendar app to update).
 */
async function followUpRecipients(
  ctx: AppContext,
  member: Member,
  entryId: number,
  { invitedOnly }: { invitedOnly: boolean },
): Promise<FollowUpRecipient[]> {
  const bookings = await bq.listBookings(ctx.db, member.teamId, [entryId]);
  const invitations = await bq.listNewestInvitationIds(ctx.db, member.teamId, entryId);
  return bookings
    .filter((b) => b.state === 'accepted' || b.state === 'unset')
    .filter((b) => !invitedOnly || invitations.has(b.id))
    .map((b) => ({ ...b, invitationId: invitations.get(b.id) }));
}

/** What a calendar app shows of an event: a change of it is sent to the invited as an updated invitation. */
const shownInCalendars = (e: Entry) =>
  [e.startAt.getTime(), e.endAt.getTime(), e.allDay, e.summary, e.scene, e.description]
    .concat([e.location, e.city, e.country])
    .join('\u0000');

/**
 * Copies an entry into the team's default calendar. A copy of an external entry remembers its
 * source (source_entry_id), so a later import can tell the team when the original changed.
 */
export async function copyEntry(ctx: AppContext, member: Member, id: number) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, id);
  if (!entry) throw new AppError('NotFound');
  const target = await q.findDefaultCalendar(ctx.db, member.teamId);
  if (!target) throw new AppError('Conflict', 'The team has no default calendar');
  const { id: _id, calendarId, calendarType, folderId, startAt, endAt, allDay, cancelledAt, ...text } = entry;
  return q.insertEntry(
    ctx.db,
    member.teamId,
    target.id,
    {
      start_at: startAt,
      end_at: endAt,
      all_day: allDay,
      summary: text.summary,
      description: text.description,
      category: text.category,
      subcategory: text.subcategory,
      scene: text.scene,
      location: text.location,
      city: text.city,
      state: text.state,
      country: text.country,
      team1: text.team1,
      team2: text.team2,
      urgency: text.urgency,
      flags: calendarType === 'default' ? text.flags : 0,
      source_entry_id: calendarType === 'default' ? null : entry.id,
    },
    member.userId,
  );
}

export async function confirmEntry(ctx: AppContext, member: Member, id: number) {
  await requireEntry(ctx.db, member, id);
  await ctx.db.transaction().execute(async (trx) => {
    if ((await q.lockEntries(trx, member.teamId, [id])).length === 0) throw new AppError('NotFound');
    await q.insertConfirmation(trx, id, member.userId);
  });
  return getEntry(ctx, member, id);
}

/** Cancels an event (it stays listed) and tells everyone still booked or invited by mail. */
export async function cancelEntry(ctx: AppContext, member: Member, id: number) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, id);
  if (!entry) throw new AppError('NotFound');
  requireDefault(entry.calendarType);
  if (entry.cancelledAt === null) {
    await q.markCancelled(ctx.db, member.teamId, id);
    const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
    const sequence = await q.findEntryVersion(ctx.db, member.teamId, id);
    const recipients = await followUpRecipients(ctx, member, id, { invitedOnly: false });
    await sendFollowUps(ctx, member.teamName, 'cancelled', { entry, zone, sequence }, recipients);
  }
  return getEntry(ctx, member, id);
}

export async function setFlag(ctx: AppContext, member: Member, id: number, bit: number, value: boolean) {
  requireTeamAdmin(member);
  const entry = await q.findEntry(ctx.db, member.teamId, id);
  if (!entry) throw new AppError('NotFound');
  requireDefault(entry.calendarType);
  // Only the team's own flags can be set; clearing a stray bit is always allowed.
  if (value) await requireTeamFlags(ctx.db, member.teamId, 1 << bit);
  const flags = await q.setFlag(ctx.db, member.teamId, id, bit, value);
  if (flags === undefined) throw new AppError('NotFound');
  return flags;
}

export const getTimeZone = (ctx: AppContext, member: Member) => q.findTeamTimeZone(ctx.db, member.teamId);

export async function setTimeZone(ctx: AppContext, member: Member, zone: string) {
  requireTeamAdmin(member);
  await q.setTeamTimeZone(ctx.db, member.teamId, zone);
  return zone;
}
