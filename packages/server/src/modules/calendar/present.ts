import {
  type Booking,
  booking as bookingSchema,
  type CalendarEntry,
  calendarEntry,
  eventFlags,
  postCalendarEntriesResponse,
} from '@photorelay/contract/calendar';
import { z } from 'zod';
import type { Member } from '../teams/service.ts';
import type { ListedBooking } from './booking-queries.ts';
import type { Entry } from './entry-queries.ts';
import type { VersionedEntry } from './month-queries.ts';
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
  const visible = isPlanner(member) ? bookings : bookings.filter((b) => b.userId === member.userId);
  return entryAnswer(e, zone, visible, confirmation);
}

function entryAnswer(
  e: Entry,
  zone: string,
  visible: readonly ListedBooking[],
  confirmation: { count: number; mine: boolean } | undefined,
): CalendarEntry {
  const start = inZone(e.startAt, zone);
  const end = inZone(e.endAt, zone);
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

// The month listing is answered as JSON text put together from cached parts (month-cache.ts): an
// entry's answer without the two fields that depend on who asks (the bookings they may see,
// whether they confirmed), checked by the contract's schema once when the entry is cached, as
// every other answer is checked when it is sent.

/** An entry's answer as JSON around its viewer's fields, with its bookings (checked) and confirmers. */
export interface EntryParts {
  /** Up to and including the comma before "bookings". */
  head: string;
  /** From "confirmedCount" to the closing brace. */
  tail: string;
  bookings: Booking[];
  /** `bookings` as JSON: what owners and operators see. */
  bookingsJson: string;
  confirmers: ReadonlySet<number>;
}

// Where the viewer's fields sit in the schema's key order. Inside a JSON string every quote is
// escaped (`s":` would be `s\":`), so this text can only be the structure itself, found once.
const viewerFields = '"bookings":[],"confirmedByCurrentUser":false,';
const bookingList = z.array(bookingSchema);

export function entryParts(v: VersionedEntry, zone: string): EntryParts {
  const json = JSON.stringify(
    calendarEntry.parse(entryAnswer(v.entry, zone, [], { count: v.confirmers.length, mine: false })),
  );
  const at = json.indexOf(viewerFields);
  if (at < 0) throw new Error('entry answer without its viewer fields');
  const bookings = bookingList.parse(v.bookings.map(presentBooking));
  return {
    head: json.slice(0, at),
    tail: json.slice(at + viewerFields.length),
    bookings,
    bookingsJson: JSON.stringify(bookings),
    confirmers: new Set(v.confirmers),
  };
}

/** `POST calendar/entries`' answer as JSON: the page's entries as `member` sees them. */
export function listingJson(
  page: readonly EntryParts[],
  member: Member,
  rest: { timeZone: string; total: number; nextOffset: number | null },
): string {
  const planner = isPlanner(member);
  const entries = page.map((p) => {
    const bookings = planner
      ? p.bookingsJson
      : JSON.stringify(p.bookings.filter((b) => b.userId === member.userId));
    const mine = p.confirmers.has(member.userId);
    return `${p.head}"bookings":${bookings},"confirmedByCurrentUser":${mine},${p.tail}`;
  });
  const envelope = JSON.stringify(postCalendarEntriesResponse.parse({ entries: [], ...rest }));
  const empty = '{"entries":[]';
  if (!envelope.startsWith(empty)) throw new Error('listing answer without its entries first');
  return `{"entries":[${entries.join(',')}]${envelope.slice(empty.length)}`;
}
