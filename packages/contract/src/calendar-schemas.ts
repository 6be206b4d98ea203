// Event calendar schemas (issue 12; spec §3 "Calendar", "Calendar entry", "Booking", §4, §5, §7 "Calendar").
// Import them from calendar.ts (which re-exports this file beside the routes).
// Stability: shapes here only grow (additive changes); a changed shape is announced in calendar.ts.
import { z } from 'zod';
import { decimalParam, idParam } from './common.ts';
import { limits } from './limits.ts';

// --- constants ------------------------------------------------------------------------------

export const eventCategories = ['sport', 'news'] as const;
export type EventCategory = (typeof eventCategories)[number];

/** Spec §3 "Event flags by bit id": index = bit id. Keys are i18n keys (calendar.flags.<key>). */
export const eventFlags = [
  'folderCreated',
  'captionDe',
  'captionEn',
  'aiFinished',
  'liveDe',
  'liveEnAgency',
  'archiveDe',
  'archiveEnAgency',
  'sFr',
  'pictureAgencyA',
  'pictureAgencyB',
  'iFr',
  'ic',
  'pa',
  'shutter',
  'pano',
  'poland',
] as const;
export type EventFlag = (typeof eventFlags)[number];
/** The spec's flags in its own words: the names a team's default flags are stored under. */
export const eventFlagNames: Record<EventFlag, string> = {
  folderCreated: 'Folder created correctly',
  captionDe: 'Caption German',
  captionEn: 'Caption English',
  aiFinished: 'AI finished',
  liveDe: 'Live German',
  liveEnAgency: 'Live English agency',
  archiveDe: 'Archive German',
  archiveEnAgency: 'Archive English agency',
  sFr: 's-fr',
  pictureAgencyA: 'a picture agency (9)',
  pictureAgencyB: 'a picture agency (10)',
  iFr: 'i-fr',
  ic: 'ic',
  pa: 'PA',
  shutter: 'Shutter',
  pano: 'Pano',
  poland: 'Poland',
};
export const flagMaskMax = 2 ** (limits.flagBitMax + 1) - 1;

export const bookingStates = ['unset', 'accepted', 'canceled', 'rejected'] as const;
export type BookingState = (typeof bookingStates)[number];
export const accreditations = [
  'notaccredited',
  'requested',
  'processing',
  'accredited',
  'permanently',
] as const;
export type Accreditation = (typeof accreditations)[number];
/** The photographer's own answer to the invitations (the agency's decision is bookingState). */
export const bookingAnswers = ['open', 'accepted', 'rejected'] as const;
export type BookingAnswer = (typeof bookingAnswers)[number];

/** Spec §4 chip colours, by the booking's state and accreditation. */
export type ChipColour = 'lightblue' | 'grey' | 'red' | 'yellow' | 'orange' | 'green';
export function bookingChipColour(state: BookingState, accreditation: Accreditation): ChipColour {
  if (state === 'unset') return 'lightblue';
  if (state === 'rejected' || state === 'canceled') return 'grey';
  if (accreditation === 'notaccredited') return 'red';
  if (accreditation === 'requested') return 'yellow';
  if (accreditation === 'processing') return 'orange';
  return 'green';
}

// Spec §5 "Event dialog" texts, word for word.
export const eventTexts = {
  invalidDate: 'Invalid date - expecting date in dd.mm.yyyy format',
  invalidTime: 'Invalid time - expecting time in hh:mm format',
  required: 'Required.',
  outOfRange: 'Date must be between 01.01.2022 and 01.01.2030',
  invalidDateTime: 'Invalid date - expecting ISO 8601 date and time with offset',
  endBeforeStart: 'The end must not be before the start',
  invalidTimeZone: 'Unknown time zone',
} as const;

export const localDatePattern = /^(0[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])\.(\d{4})$/;
export const localTimePattern = /^([01]\d|2[0-3]):([0-5]\d)$/;
const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar day (yyyy-mm-dd) an ISO 8601 string names in its own offset, range-checked. */
const dayInRange = (day: string) => day >= limits.calendarMin && day <= limits.calendarMax;

const isoDateTime = z.iso.datetime({ offset: true, message: eventTexts.invalidDateTime });
const isoDateTimeInRange = isoDateTime.refine((v) => dayInRange(v.slice(0, 10)), eventTexts.outOfRange);
const localDate = z
  .string()
  .regex(localDatePattern, eventTexts.invalidDate)
  .refine((v) => {
    const [d, m, y] = v.split('.').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCDate() === d && date.getUTCMonth() === m - 1;
  }, eventTexts.invalidDate)
  .refine((v) => dayInRange(v.split('.').reverse().join('-')), eventTexts.outOfRange);
const localTime = z.string().regex(localTimePattern, eventTexts.invalidTime);
const text = z.string().trim().max(limits.calendarText);

export const timeZone = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return v.includes('/') || v === 'UTC';
    } catch {
      return false;
    }
  }, eventTexts.invalidTimeZone);

// --- schemas --------------------------------------------------------------------------------

export const calendar = z.object({
  dbcalendarid: z.number(),
  name: z.string(),
  refname: z.string(),
  /** 'default' or the external kind ('google', 'ics', ...). */
  type: z.string(),
  /** External calendars only, and only for owners and operators. */
  url: z.string().nullable(),
  folderId: z.number(),
  /** External calendars, owners and operators (issue 27 item 10): when the last refresh ran, what it changed, why it failed. */
  refreshedAt: z.string().nullable().optional(),
  lastChanges: z
    .object({ inserted: z.number(), updated: z.number(), removed: z.number() })
    .nullable()
    .optional(),
  lastError: z.string().nullable().optional(),
});
export type Calendar = z.infer<typeof calendar>;
export const getCalendarResponse = z.object({ result: z.literal('OK'), calendar });
/** The team's calendars a member may see (photographers: no external ones). */
export const getCalendarsResponse = z.object({ calendars: z.array(calendar), timeZone: z.string() });

export const booking = z.object({
  bookingId: z.number(),
  userId: z.number(),
  dbuserid: z.number(),
  fullname: z.string(),
  accreditationNumber: z.string().nullable(),
  bookingState: z.enum(bookingStates),
  accreditation: z.enum(accreditations),
  /** Count of invitations sent. */
  suggested: z.number(),
  answer: z.enum(bookingAnswers),
  updatedAt: z.string(),
});
export type Booking = z.infer<typeof booking>;

export const calendarEntry = z.object({
  dbcalendarentryid: z.number(),
  dbcalendarid: z.number(),
  calendartype: z.string(),
  startdatetime: z.string(),
  enddatetime: z.string(),
  allDay: z.boolean(),
  /** DD.MM.YYYY and HH:mm in the team's time zone. */
  localizedStartDate: z.string(),
  localizedStartTime: z.string(),
  localizedEndDate: z.string(),
  localizedEndTime: z.string(),
  /** yyyy-mm-dd in the team's time zone: the table groups by it. */
  startDate: z.string(),
  summary: z.string(),
  description: z.string(),
  category: z.string(),
  subcategory: z.string(),
  scene: z.string(),
  location: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  team1: z.string(),
  team2: z.string(),
  urgency: z.number().nullable(),
  flags: z.number(),
  /** Flag key (eventFlags) -> set. */
  flagDictionary: z.record(z.string(), z.boolean()),
  /** Owners and operators: all; photographers: only their own. */
  bookings: z.array(booking),
  confirmedByCurrentUser: z.boolean(),
  confirmedCount: z.number(),
  cancelled: z.boolean(),
  cancelledAt: z.string().nullable(),
  /** A team copy of an external entry: the external entry's id, and 'changed' | 'vanished' once it moved on. */
  sourceEntryId: z.number().nullable(),
  sourceStatus: z.string().nullable(),
});
export type CalendarEntry = z.infer<typeof calendarEntry>;

/**
 * An entry's body (POST and PUT). The start is either `startdatetime` (ISO 8601 with offset) or
 * `startDate` + `startTime` (dd.mm.yyyy, hh:mm in the team's zone, the dialog's fields). The
 * end likewise (`enddatetime` or `endDate` + `endTime`); without one it is two hours later.
 */
export const calendarEntryBody = z
  .object({
    startdatetime: isoDateTimeInRange.optional(),
    startDate: localDate.optional(),
    startTime: localTime.optional(),
    enddatetime: isoDateTime.optional(),
    endDate: localDate.optional(),
    endTime: localTime.optional(),
    allDay: z.boolean().optional(),
    summary: text.default(''),
    description: z.string().max(limits.calendarDescription).default(''),
    category: z.enum(eventCategories, { message: 'Unknown category' }),
    subcategory: text.default(''),
    scene: z.string().trim().min(1, eventTexts.required).max(limits.calendarText),
    location: text.default(''),
    city: text.default(''),
    state: text.default(''),
    country: text.default(''),
    team1: text.default(''),
    team2: text.default(''),
    urgency: z.number().int().min(limits.urgencyMin).max(limits.urgencyMax).nullable().optional(),
    flags: z.number().int().min(0).max(flagMaskMax).optional(),
    /** New entries only: the external entry this team event is made from (remembered like a copy's). */
    sourceEntryId: z.number().int().positive().optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.startdatetime) {
      if (!b.startDate)
        ctx.addIssue({ code: 'custom', path: ['startDate'], message: eventTexts.invalidDate });
      if (!b.startTime)
        ctx.addIssue({ code: 'custom', path: ['startTime'], message: eventTexts.invalidTime });
    }
    if (!b.enddatetime && (b.endDate === undefined) !== (b.endTime === undefined)) {
      const path = b.endDate === undefined ? 'endDate' : 'endTime';
      const message = path === 'endDate' ? eventTexts.invalidDate : eventTexts.invalidTime;
      ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });
export type CalendarEntryBody = z.infer<typeof calendarEntryBody>;

export const postCalendarEntriesBody = z.object({
  calendarIds: z.array(z.number().int().positive()).max(100),
  /** yyyy-mm-dd, midnight in the team's zone. */
  startDate: z
    .string()
    .regex(isoDatePattern, eventTexts.invalidDate)
    .refine((v) => !Number.isNaN(Date.parse(v)) && dayInRange(v), eventTexts.outOfRange),
  /** Exclusive; default one month after startDate; at most calendarListMaxDays later. */
  endDate: z
    .string()
    .regex(isoDatePattern, eventTexts.invalidDate)
    .refine((v) => !Number.isNaN(Date.parse(v)), eventTexts.invalidDate)
    .optional(),
  /**
   * Paging (ours; spec §9 "table page size 200"): the range's entries from `offset` (default 0),
   * at most `limit` (default and most: calendarPageSize). A client that sends only the spec's
   * {calendarIds, startDate} gets the first page and `total`/`nextOffset` for the rest.
   */
  offset: z.number().int().min(0).max(limits.calendarListMaxOffset).optional(),
  limit: z.number().int().min(1).max(limits.calendarPageSize).optional(),
});
export const postCalendarEntriesResponse = z.object({
  entries: z.array(calendarEntry),
  timeZone: z.string(),
  /** Entries in the whole range; `nextOffset` is where the next page starts, null on the last. */
  total: z.number(),
  nextOffset: z.number().nullable(),
});
export const getCalendarEntryResponse = z.object({ result: z.literal('OK'), entry: calendarEntry });
export const postCalendarEntryResponse = z.object({ result: z.literal('OK'), calendarentryid: z.number() });
export const putCalendarEntryResponse = getCalendarEntryResponse;
export const entryStateResponse = getCalendarEntryResponse;

export const putEntryFlagBody = z.object({ value: z.boolean() });
/** A flag's bit in the URL, written the canonical decimal way like the ids (`0x2`, `2e0`, `02` are refused). */
export const flagBitParam = decimalParam(0, limits.flagBitMax);
export const putEntryFlagResponse = z.object({ result: z.literal('OK'), flags: z.number() });

/**
 * A team's own event flag (issue 27 item 8): its bit in the entries' `flags`, its name, the spec's
 * key while it is an untouched default (the UI translates it), and where it is set.
 */
export const teamFlag = z.object({
  bit: z.number(),
  name: z.string(),
  preset: z.enum(eventFlags).nullable(),
  /** Entries of the team's calendars with this flag set, and the first few of them. */
  usedBy: z.number(),
  usedIn: z.array(z.object({ id: z.number(), summary: z.string(), startDate: z.string() })),
});
export type TeamFlag = z.infer<typeof teamFlag>;
export const getTeamFlagsResponse = z.object({ result: z.literal('OK'), flags: z.array(teamFlag) });
export const teamFlagBody = z.object({
  name: z.string().trim().min(1, eventTexts.required).max(limits.flagName),
});
/** Removing a flag that is set somewhere needs `force=true` (it is then cleared on those entries). */
export const deleteTeamFlagQuery = z.object({ force: z.enum(['true', 'false']).optional() });

export const postSuggestEntriesBody = z.object({
  userIds: z.array(z.number().int().positive()).min(1).max(200),
  entryIds: z.array(z.number().int().positive()).min(1).max(200),
  language: z.enum(['en', 'de']).optional(),
});
export const postSuggestEntriesResponse = z.object({ result: z.literal('OK'), invitations: z.number() });

export const postBookingBody = z.object({
  entryId: z.number().int().positive(),
  userId: z.number().int().positive(),
  bookingState: z.enum(bookingStates).optional(),
  accreditation: z.enum(accreditations).optional(),
});
export const postBookingResponse = z.object({ result: z.literal('OK'), booking });

export const bookingHistoryItem = z.object({
  bookingId: z.number(),
  userId: z.number(),
  changedBy: z.number().nullable(),
  changedByName: z.string(),
  changedAt: z.string(),
  field: z.enum(['bookingState', 'accreditation', 'answer', 'suggested']),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export const getBookingHistoryResponse = z.object({ history: z.array(bookingHistoryItem) });

export const myBooking = z.object({ entry: calendarEntry, booking });
export const getMyBookingsResponse = z.object({ bookings: z.array(myBooking) });
export const myBookingsQuery = z.object({
  from: z.string().regex(isoDatePattern, eventTexts.invalidDate).optional(),
});
/** A photographer's own answer to an invitation, from the calendar page. */
export const postMyBookingAnswerBody = z.object({ answer: z.enum(['accepted', 'rejected']) });
export const postMyBookingAnswerResponse = postBookingResponse;

export const copyEntryResponse = postCalendarEntryResponse;

export const getTimeZoneResponse = z.object({ timeZone: z.string() });
export const putTimeZoneBody = z.object({ timeZone });

// Photographer invitation page (outside a team: the link names no team).
export const invitationParams = z.object({ ciid: idParam });
export const invitationQuery = z.object({
  selector: z.string().min(1).max(200),
  token: z.string().min(1).max(200),
});
export const invitationEntry = z.object({
  teamName: z.string(),
  teamUuid: z.string(),
  userId: z.number(),
  entry: calendarEntry,
});
export const getInvitationResponse = invitationEntry;
export const confirmInvitationBody = z.object({
  token: z.string().min(1).max(200),
  selector: z.string().min(1).max(200),
  /** Default accept; 'rejected' declines. */
  answer: z.enum(['accepted', 'rejected']).optional(),
});
export const confirmInvitationResponse = z.object({
  result: z.literal('OK'),
  answer: z.enum(bookingAnswers),
});

export const xmpDownloadResponse = z.string();
