import type { Accreditation, BookingState } from '@photorelay/contract/calendar';
import { AppError } from '@photorelay/contract/errors';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import * as teamQueries from '../teams/queries.ts';
import type { Member } from '../teams/service.ts';
import type { BookingRecord } from './booking-queries.ts';
import * as bq from './booking-queries.ts';
import { presentEntries, requireEntry } from './entries.ts';
import type { Entry } from './entry-queries.ts';
import * as q from './entry-queries.ts';
import { sendFollowUps } from './event-mails.ts';
import { presentBooking } from './present.ts';
import { dayStart, inZone } from './time.ts';

// Use cases of bookings: the agency's changes (spec §4 "Booking state"), the photographer's own
// answers, the history, and a photographer's list of their bookings.

/**
 * Spec §4: a booking that is not accepted may go to accepted ('Accept booking') or canceled
 * ('Cancel booking'); an accepted one back to unset ('Cancel booking'). Nothing else.
 */
export function allowedStateChange(from: BookingState, to: BookingState): string | null {
  if (from === to) return `The booking is already ${from}`;
  if (from === 'accepted')
    return to === 'unset' ? null : `An accepted booking can only be cancelled (to unset), not set to ${to}`;
  if (to === 'accepted' || to === 'canceled') return null;
  return `A booking that is ${from} can only be accepted or canceled, not set to ${to}`;
}

/** Spec §4: accreditation is set on accepted bookings only, and never to the value it has. */
export function allowedAccreditationChange(
  state: BookingState,
  from: Accreditation,
  to: Accreditation,
): string | null {
  if (state !== 'accepted')
    return `Accreditation can only be set on an accepted booking (this one is ${state})`;
  if (from === to) return `The accreditation is already ${from}`;
  return null;
}

async function requireBookableEntry(db: Db, member: Member, entryId: number) {
  const entry = await requireEntry(db, member, entryId);
  if (entry.calendarType !== 'default')
    throw new AppError('Conflict', 'Entries of external calendars have no bookings');
  return entry;
}

export async function changeBooking(
  ctx: AppContext,
  member: Member,
  body: { entryId: number; userId: number; bookingState?: BookingState; accreditation?: Accreditation },
) {
  requireTeamAdmin(member);
  if (body.bookingState === undefined && body.accreditation === undefined)
    throw new AppError('ValidationError', 'Give bookingState or accreditation');
  const entry = await requireBookableEntry(ctx.db, member, body.entryId);
  if (!(await teamQueries.findMember(ctx.db, member.teamId, body.userId)))
    throw new AppError('NotFound', 'Unknown user');

  const before = await ctx.db.transaction().execute(async (trx) => {
    if ((await q.lockEntries(trx, member.teamId, [body.entryId])).length === 0)
      throw new AppError('NotFound');
    // The row lock queues concurrent changes: each is checked against what the one before left.
    const current = await bq.ensureBooking(trx, member.teamId, body.entryId, body.userId);
    const changes: bq.HistoryChange[] = [];
    let state = current.state;
    if (body.bookingState !== undefined) {
      const refused = allowedStateChange(state, body.bookingState);
      if (refused) throw new AppError('Conflict', refused);
      changes.push({ field: 'bookingState', from: state, to: body.bookingState });
      state = body.bookingState;
    }
    if (body.accreditation !== undefined) {
      const refused = allowedAccreditationChange(state, current.accreditation, body.accreditation);
      if (refused) throw new AppError('Conflict', refused);
      changes.push({ field: 'accreditation', from: current.accreditation, to: body.accreditation });
    }
    await bq.updateBooking(trx, current.id, {
      ...(body.bookingState !== undefined ? { state: body.bookingState } : {}),
      ...(body.accreditation !== undefined ? { accreditation: body.accreditation } : {}),
    });
    await bq.insertHistory(trx, current.id, member.userId, changes);
    return current.state;
  });
  const booking = await bq.findBooking(ctx.db, member.teamId, body.entryId, body.userId);
  if (!booking) throw new AppError('NotFound');
  if (cancelsBooking(before, body.bookingState)) await tellUninvited(ctx, member, entry, booking, before);
  return presentBooking(booking);
}

/** 'Cancel booking' (spec §4): an invitation or a booking to canceled, an accepted booking back to unset. */
const cancelsBooking = (from: BookingState, to: BookingState | undefined) =>
  to === 'canceled' || (from === 'accepted' && to === 'unset');

/**
 * A cancelled booking takes the event out of the person's calendar app (METHOD:CANCEL), if they
 * had it: they were invited or booked. A cancelled event was taken out already.
 */
async function tellUninvited(
  ctx: AppContext,
  member: Member,
  entry: Entry,
  booking: BookingRecord,
  before: BookingState,
) {
  if (entry.cancelledAt !== null) return;
  const invitationId = (await bq.listNewestInvitationIds(ctx.db, member.teamId, entry.id)).get(booking.id);
  if (invitationId === undefined && before !== 'accepted') return;
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const sequence = await q.findEntryVersion(ctx.db, member.teamId, entry.id);
  await sendFollowUps(ctx, member.teamName, 'uninvited', { entry, zone, sequence }, [
    { ...booking, invitationId },
  ]);
}

/**
 * A photographer's own answer to an invitation (from the mailed link or the calendar page).
 * Accepting tells the agency 'yes' (their 'Accept booking' then books); declining rejects the
 * booking. Giving the same answer twice changes nothing.
 */
export async function answerOwnBooking(
  db: Db,
  member: Member,
  entryId: number,
  answer: 'accepted' | 'rejected',
) {
  await db.transaction().execute(async (trx) => {
    await q.lockEntries(trx, member.teamId, [entryId]);
    const current = await bq.lockBooking(trx, member.teamId, entryId, member.userId);
    if (!current) throw new AppError('NotFound', 'No invitation for this event');
    if (current.state === 'canceled') throw new AppError('Conflict', 'The agency has cancelled this booking');
    if (answer === 'rejected' && current.state === 'accepted')
      throw new AppError('Conflict', 'The agency has already accepted this booking; ask them to cancel it');
    const changes: bq.HistoryChange[] = [];
    if (current.answer !== answer) changes.push({ field: 'answer', from: current.answer, to: answer });
    const state: BookingState =
      answer === 'rejected' ? 'rejected' : current.state === 'rejected' ? 'unset' : current.state;
    if (state !== current.state) changes.push({ field: 'bookingState', from: current.state, to: state });
    if (changes.length === 0) return;
    await bq.updateBooking(trx, current.id, { answer, state });
    await bq.insertHistory(trx, current.id, member.userId, changes);
  });
  const booking = await bq.findBooking(db, member.teamId, entryId, member.userId);
  if (!booking) throw new AppError('NotFound');
  return presentBooking(booking);
}

export async function answerFromCalendar(
  ctx: AppContext,
  member: Member,
  entryId: number,
  answer: 'accepted' | 'rejected',
) {
  // The photographer may not be able to read the calendar folder: their own booking is enough.
  const booking = await bq.findBooking(ctx.db, member.teamId, entryId, member.userId);
  if (!booking) throw new AppError('NotFound');
  return answerOwnBooking(ctx.db, member, entryId, answer);
}

export async function bookingHistory(ctx: AppContext, member: Member, entryId: number) {
  requireTeamAdmin(member);
  await requireEntry(ctx.db, member, entryId);
  const rows = await bq.listHistory(ctx.db, member.teamId, entryId);
  return rows.map((r) => ({
    ...r,
    field: r.field as 'bookingState' | 'accreditation' | 'answer' | 'suggested',
    changedAt: r.changedAt.toISOString(),
  }));
}

/** The member's own invitations and bookings from `from` (default: today in the team's zone). */
export async function myBookings(ctx: AppContext, member: Member, from?: string) {
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const start = dayStart(from ?? inZone(new Date(), zone).day, zone);
  const ids = await bq.listOwnBookingEntryIds(ctx.db, member.teamId, member.userId, start);
  const entries = await q.listEntriesByIds(ctx.db, member.teamId, ids);
  // Presented as the photographer sees them: with their own booking only.
  const asSelf = { ...member, hasAllPermissions: false };
  const presented = await presentEntries(ctx.db, asSelf, entries, zone);
  return presented.flatMap((entry) => {
    const own = entry.bookings.find((b) => b.userId === member.userId);
    return own ? [{ entry: { ...entry, bookings: [own] }, booking: own }] : [];
  });
}
