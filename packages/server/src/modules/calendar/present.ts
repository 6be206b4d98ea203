import { type Booking, type CalendarEntry, eventFlags } from '@photorelay/contract/calendar';
import type { Member } from '../teams/service.ts';
import type { ListedBooking } from './booking-queries.ts';
import type { Entry } from './entry-queries.ts';
import { inZone } from './time.ts';

/** Owners and operators plan; everyone else (the Photographer group) only sees their own part. */
export const isPlanner = (member: Member) => member.hasAllPermissions;

export function presentBooking(b: ListedBooking): Booking {
  return {
    bookingId: b.id,
    userId: b.userId,
    dbuserid: b.userId,
    fullname: b.fullname,
    accreditationNumber: b.accreditationNumber,
    bookingState: b.state,
    accreditation: b.accreditation,
    suggested: b.suggested,
    answer: b.answer,
    updatedAt: b.updatedAt.toISOString(),
  };
}

export function flagDictionary(flags: number): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  eventFlags.forEach((key, bit) => {
    result[key] = (flags & (1 << bit)) !== 0;
  });
  return result;
}

/**
 * The contract shape of an entry for `member`: a photographer gets only their own booking, and
 * (the callers make sure) never an entry of an external calendar.
 */
export function presentEntry(
  e: Entry,
  zone: string,
  member: Member,
  bookings: readonly ListedBooking[],
  confirmation: { count: number; mine: boolean } | undefined,
): CalendarEntry {
  const start = inZone(e.startAt, zone);
  const end = inZone(e.endAt, zone);
  const visible = isPlanner(member) ? bookings : bookings.filter((b) => b.userId === member.userId);
  return {
    dbcalendarentryid: e.id,
    dbcalendarid: e.calendarId,
    calendartype: e.calendarType,
    startdatetime: start.iso,
    enddatetime: end.iso,
    allDay: e.allDay,
    localizedStartDate: start.date,
    localizedStartTime: start.time,
    localizedEndDate: end.date,
    localizedEndTime: end.time,
    startDate: start.day,
    summary: e.summary,
    description: e.description,
    category: e.category,
    subcategory: e.subcategory,
    scene: e.scene,
    location: e.location,
    city: e.city,
    state: e.state,
    country: e.country,
    team1: e.team1,
    team2: e.team2,
    urgency: e.urgency,
    flags: e.flags,
    flagDictionary: flagDictionary(e.flags),
    bookings: visible.map(presentBooking),
    confirmedByCurrentUser: confirmation?.mine ?? false,
    confirmedCount: confirmation?.count ?? 0,
    cancelled: e.cancelledAt !== null,
    cancelledAt: e.cancelledAt?.toISOString() ?? null,
    sourceEntryId: e.sourceEntryId,
    sourceStatus: e.sourceStatus,
  };
}
