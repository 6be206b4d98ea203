// Calendar calls of spec §7 'Calendar': calendars, the month listing, entries, confirm/cancel,
// invitations, bookings, the team's time zone and the photographer's invitation page.
//
// WHAT THE WEB NEEDS FROM THE CONTRACT / SERVER (calendar-web -> calendar-server). Until
// packages/contract/src/calendar.ts lands, the schemas below stand in for it; field names are
// spec §3's. Please answer with these shapes (or tell me what differs):
// - GET team/calendar/{id} -> { result:'OK', calendar: { dbcalendarid, name, refname, type } }
// - GET team/externalcalendars -> { calendars: Calendar[] } (owners/operators; the page lists
//   the opened calendar plus these). DELETE team/calendar/{dbcalendarid}; refresh via the
//   updateexternalcalendar command.
// - POST team/calendar/entries {calendarIds:number[], startDate:'YYYY-MM-DD'} -> { entries }
//   (the web asks for one month from startDate; page size 200 is applied in the web).
//   Entry: dbcalendarentryid, dbcalendarid, calendartype, startdatetime, enddatetime (ISO with
//   offset), localizedStartDate, localizedStartTime, startDate, summary, description, category,
//   subcategory, scene, location, city, state, country, team1, team2, urgency (number|null),
//   flags, bookings (owners/operators only; [] otherwise), confirmedByCurrentUser,
//   cancelled (boolean, from cancelled_at), sourceEntryId/sourceStatus optional.
//   Booking: userId, dbuserid, accreditationNumber (string|null), bookingState, accreditation,
//   suggested, plus fullname and email (so the chip can name the photographer).
// - POST team/calendar/{dbcalendarid}/entry body = EntryBody below -> { result, calendarentryid };
//   PUT .../entry/{id} same body (flags included: the row's flag checkboxes save through it);
//   DELETE team/calendar/entry/{id}; PUT team/calendarentry/{id}/confirm|cancel.
// - POST team/calendar/entry/{id}/copy -> { result, calendarentryid } (copies an external entry
//   into the team's default calendar; 'create' row icon).
// - GET team/calendar/entry/{id}/history -> { history: [{ userId, changedBy, changedByName,
//   changedAt, field, from, to }] } shown in the event dialog.
// - GET team/mybookings -> { entries } for photographers (their own bookings and invitations).
// - POST team/booking {entryId, userId, bookingState?, accreditation?} -> { booking }.
//   A photographer accepts/rejects their own invitation with the same call (bookingState
//   'accepted' | 'rejected').
// - GET team/timezone -> { timeZone }, PUT team/timezone { timeZone } (owners/operators).
// - GET team/calendar/invitation/{ciid} -> { entry } for the invited photographer.
// - POST /calendar/suggestentries/{ciid}/confirm {token, selector, accept:boolean} -> result 'OK'.
import { okResult } from '@photorelay/contract/common';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiDelete, apiGet, apiPost, apiPut, teamPath, teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { handlesAllErrors } from './query-client.ts';

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

const calendarSchema = z.object({
  dbcalendarid: z.number(),
  name: z.string(),
  refname: z.string().nullish(),
  type: z.string(),
});
export type Calendar = z.infer<typeof calendarSchema>;

const bookingSchema = z.object({
  userId: z.number(),
  dbuserid: z.number().optional(),
  accreditationNumber: z.string().nullish(),
  bookingState: z.enum(bookingStates),
  accreditation: z.enum(accreditations),
  suggested: z.number(),
  fullname: z.string().optional(),
  email: z.string().optional(),
});
export type Booking = z.infer<typeof bookingSchema>;

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
const entrySchema = z.object({
  dbcalendarentryid: z.number(),
  dbcalendarid: z.number(),
  calendartype: z.string(),
  startdatetime: z.string(),
  enddatetime: z.string(),
  localizedStartDate: z.string().optional(),
  localizedStartTime: z.string().optional(),
  summary: text,
  description: text,
  category: text,
  subcategory: text,
  scene: text,
  location: text,
  city: text,
  state: text,
  country: text,
  team1: text,
  team2: text,
  urgency: z.number().nullish(),
  flags: z.number().default(0),
  bookings: z.array(bookingSchema).default([]),
  confirmedByCurrentUser: z.boolean().default(false),
  cancelled: z.boolean().default(false),
});
export type CalendarEntry = z.infer<typeof entrySchema>;

/** What the event dialog sends (spec §3 'Calendar entry' by name). */
export type EntryBody = {
  startdatetime: string;
  enddatetime: string;
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
};

const historySchema = z.object({
  history: z.array(
    z.object({
      userId: z.number().optional(),
      changedBy: z.number().nullish(),
      changedByName: z.string().nullish(),
      changedAt: z.string(),
      field: z.string(),
      from: z.string().nullish(),
      to: z.string().nullish(),
    }),
  ),
});
export type BookingHistory = z.infer<typeof historySchema>['history'];

export const calendarKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'calendar'] as const,
  calendars: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'calendars'] as const,
  calendar: (teamUuid: string, id: number) => [...calendarKeys.all(teamUuid), 'calendar', id] as const,
  entries: (teamUuid: string, calendarIds: readonly number[], startDate: string) =>
    [...calendarKeys.all(teamUuid), 'entries', [...calendarIds].sort(), startDate] as const,
  history: (teamUuid: string, entryId: number) =>
    [...calendarKeys.all(teamUuid), 'history', entryId] as const,
  myBookings: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'mybookings'] as const,
  timeZone: (teamUuid: string) => [...teamScope(teamUuid), 'timezone'] as const,
  invitation: (teamUuid: string, entryId: number) =>
    [...calendarKeys.all(teamUuid), 'invitation', entryId] as const,
};

// ---- fetchers ----

export const fetchExternalCalendars = (teamUuid: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, 'externalcalendars'), {
    schema: z.object({ calendars: z.array(calendarSchema) }),
    signal,
  }).then((answer) => answer.calendars);

export const fetchCalendar = (teamUuid: string, id: number, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, `calendar/${id}`), {
    schema: z.object({ calendar: calendarSchema }),
    signal,
  }).then((answer) => answer.calendar);

export const fetchEntries = (
  teamUuid: string,
  body: { calendarIds: readonly number[]; startDate: string },
  signal?: AbortSignal,
) =>
  apiPost(teamPath(teamUuid, 'calendar/entries'), body, {
    schema: z.object({ entries: z.array(entrySchema) }),
    signal,
  }).then((answer) => answer.entries);

export const fetchMyBookings = (teamUuid: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, 'mybookings'), {
    schema: z.object({ entries: z.array(entrySchema) }),
    signal,
  }).then((answer) => answer.entries);

export const fetchHistory = (teamUuid: string, entryId: number, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, `calendar/entry/${entryId}/history`), { schema: historySchema, signal }).then(
    (answer) => answer.history,
  );

export const fetchTimeZone = (teamUuid: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, 'timezone'), { schema: z.object({ timeZone: z.string() }), signal }).then(
    (answer) => answer.timeZone,
  );

export const fetchInvitationEntry = (teamUuid: string, entryId: number, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, `calendar/invitation/${entryId}`), {
    schema: z.object({ entry: entrySchema }),
    signal,
  }).then((answer) => answer.entry);

/** Event category definitions (spec §3) as stored in the team's config file `{category}.json`. */
export const fetchCategoryFile = (teamUuid: string, category: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, `file/${encodeURIComponent(category)}.json`), {
    schema: z.object({ file: z.object({ text: z.string() }) }),
    signal,
  }).then((answer) => answer.file.text);

const entryCreated = z.object({ calendarentryid: z.number() });
export const postEntry = (teamUuid: string, calendarId: number, body: EntryBody) =>
  apiPost(teamPath(teamUuid, `calendar/${calendarId}/entry`), body, { schema: entryCreated });
export const putEntry = (teamUuid: string, calendarId: number, id: number, body: EntryBody) =>
  apiPut(teamPath(teamUuid, `calendar/${calendarId}/entry/${id}`), body, { schema: okResult });
export const deleteCalendar = (teamUuid: string, id: number) =>
  apiDelete(teamPath(teamUuid, `calendar/${id}`), {}, { schema: okResult });
export const deleteEntry = (teamUuid: string, id: number) =>
  apiDelete(teamPath(teamUuid, `calendar/entry/${id}`), {}, { schema: okResult });
export const copyEntry = (teamUuid: string, id: number) =>
  apiPost(teamPath(teamUuid, `calendar/entry/${id}/copy`), {}, { schema: entryCreated });
export const putEntryDecision = (teamUuid: string, id: number, decision: 'confirm' | 'cancel') =>
  apiPut(teamPath(teamUuid, `calendarentry/${id}/${decision}`), {}, { schema: okResult });
export const postSuggestEntries = (teamUuid: string, body: { userIds: number[]; entryIds: number[] }) =>
  apiPost(teamPath(teamUuid, 'calendar/suggestentries'), body, { schema: okResult });

export type BookingChange = {
  entryId: number;
  userId: number;
  bookingState?: BookingState;
  accreditation?: Accreditation;
};
export const postBooking = (teamUuid: string, body: BookingChange) =>
  apiPost(teamPath(teamUuid, 'booking'), body, { schema: z.object({ booking: bookingSchema }) });

export const putTimeZone = (teamUuid: string, timeZone: string) =>
  apiPut(teamPath(teamUuid, 'timezone'), { timeZone }, { schema: okResult });

/** Not team-scoped: the mailed link carries token and selector (spec §7 'Account'). */
export const postConfirmInvitation = (
  ciid: number,
  body: { token: string; selector: string; accept: boolean },
) => apiPost(`calendar/suggestentries/${ciid}/confirm`, body, { schema: okResult });

/** Answers with the entry's XMP sidecar as an attachment. */
export const entryXmpUrl = (teamUuid: string, entryId: number) =>
  `/api/${teamPath(teamUuid, `calendar/xmp/${entryId}`)}`;

// ---- queries ----

export const useExternalCalendars = (teamUuid: string, enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.calendars(teamUuid),
    queryFn: ({ signal }) => fetchExternalCalendars(teamUuid, signal),
    enabled,
  });

export const useCalendar = (teamUuid: string, id: number) =>
  useQuery({
    queryKey: calendarKeys.calendar(teamUuid, id),
    queryFn: ({ signal }) => fetchCalendar(teamUuid, id, signal),
    enabled: id > 0,
    meta: handlesAllErrors,
  });

export const entriesQueryOptions = (teamUuid: string, calendarIds: readonly number[], startDate: string) =>
  queryOptions({
    queryKey: calendarKeys.entries(teamUuid, calendarIds, startDate),
    queryFn: ({ signal }) => fetchEntries(teamUuid, { calendarIds, startDate }, signal),
    // Two operators editing one booking see each other's change on reload (issue 12).
    staleTime: 0,
  });

export const useEntries = (teamUuid: string, calendarIds: readonly number[], startDate: string) =>
  useQuery({ ...entriesQueryOptions(teamUuid, calendarIds, startDate), enabled: calendarIds.length > 0 });

export const useMyBookings = (teamUuid: string, enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.myBookings(teamUuid),
    queryFn: ({ signal }) => fetchMyBookings(teamUuid, signal),
    enabled,
  });

export const useBookingHistory = (teamUuid: string, entryId: number, enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.history(teamUuid, entryId),
    queryFn: ({ signal }) => fetchHistory(teamUuid, entryId, signal),
    enabled,
    // The dialog works without a history; a missing one is not worth a global error.
    meta: handlesAllErrors,
  });

/** The team's zone for rendering (default Europe/Berlin, migration 0012). */
export const useTeamTimeZone = (teamUuid: string) =>
  useQuery({
    queryKey: calendarKeys.timeZone(teamUuid),
    queryFn: ({ signal }) => fetchTimeZone(teamUuid, signal),
    staleTime: 60_000,
    meta: handlesAllErrors,
  });

export const useCategoryFile = (teamUuid: string, category: string) =>
  useQuery({
    queryKey: [...teamScope(teamUuid), 'configfiles', 'byName', `${category}.json`] as const,
    queryFn: ({ signal }) => fetchCategoryFile(teamUuid, category, signal),
    staleTime: 60_000,
    meta: handlesAllErrors,
  });

export const useInvitationEntry = (teamUuid: string, entryId: number, enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.invitation(teamUuid, entryId),
    queryFn: ({ signal }) => fetchInvitationEntry(teamUuid, entryId, signal),
    enabled,
    meta: handlesAllErrors,
  });

// ---- mutations ----

function useInvalidateCalendar(teamUuid: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: calendarKeys.all(teamUuid) });
}

export type SaveEntry = { calendarId: number; id?: number; body: EntryBody };
export function useSaveEntry(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: ({ calendarId, id, body }: SaveEntry) =>
      id === undefined
        ? postEntry(teamUuid, calendarId, body).then((answer) => answer.calendarentryid)
        : putEntry(teamUuid, calendarId, id, body).then(() => id),
    onSettled: invalidate,
  });
}

export function useDeleteCalendar(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({ mutationFn: (id: number) => deleteCalendar(teamUuid, id), onSettled: invalidate });
}

/** 'Refresh' of an external calendar: the spec's async command. */
export const useRefreshCalendar = (teamUuid: string) =>
  useCommand<{ calendarRefName: string }>(teamUuid, 'command/updateexternalcalendar');

export function useDeleteEntry(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({ mutationFn: (id: number) => deleteEntry(teamUuid, id), onSettled: invalidate });
}

export function useCopyEntry(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({ mutationFn: (id: number) => copyEntry(teamUuid, id), onSettled: invalidate });
}

export function useEntryDecision(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'confirm' | 'cancel' }) =>
      putEntryDecision(teamUuid, id, decision),
    onSettled: invalidate,
  });
}

export function useSuggestEntries(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: (body: { userIds: number[]; entryIds: number[] }) => postSuggestEntries(teamUuid, body),
    onSettled: invalidate,
  });
}

export function useChangeBooking(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: (change: BookingChange) => postBooking(teamUuid, change).then((answer) => answer.booking),
    onSettled: invalidate,
  });
}

export function useSaveTimeZone(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (timeZone: string) => putTimeZone(teamUuid, timeZone),
    onSuccess: (_answer, timeZone) => queryClient.setQueryData(calendarKeys.timeZone(teamUuid), timeZone),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all(teamUuid) }),
  });
}

export const useConfirmInvitation = () =>
  useMutation({
    mutationFn: ({ ciid, ...body }: { ciid: number; token: string; selector: string; accept: boolean }) =>
      postConfirmInvitation(ciid, body),
    meta: handlesAllErrors,
  });
