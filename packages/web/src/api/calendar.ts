// Calendar calls of spec §7 'Calendar' (issue 12), built from the contract's route declarations
// (packages/contract/src/calendar.ts): calendars, the listing, entries, flags, confirm/cancel,
// invitations, bookings, the photographer's own bookings, the team's time zone, and the
// photographer invitation page's calls outside a team.
import {
  type Accreditation,
  type BookingState,
  type CalendarEntryBody,
  type Booking as ContractBooking,
  type Calendar as ContractCalendar,
  type CalendarEntry as ContractCalendarEntry,
  type calendarEntryBody,
  invitationRoutes,
  calendarRoutes as r,
} from '@photorelay/contract/calendar';
import * as externalRoutes from '@photorelay/contract/externalcalendars';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { callRoute, routeUrl } from './call.ts';
import { teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { fetchConfigFileByName } from './configfiles.ts';
import { handlesAllErrors } from './query-client.ts';

export { accreditations, bookingStates } from '@photorelay/contract/calendar';
export type { Accreditation, BookingState };
export type Calendar = ContractCalendar;
export type Booking = ContractBooking;
export type CalendarEntry = ContractCalendarEntry;
export type EntryBody = z.input<typeof calendarEntryBody>;
export type { CalendarEntryBody };

export const calendarKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'calendar'] as const,
  calendars: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'calendars'] as const,
  entries: (
    teamUuid: string,
    calendarIds: readonly number[],
    startDate: string,
    endDate: string,
    offset = 0,
  ) =>
    [...calendarKeys.all(teamUuid), 'entries', [...calendarIds].sort(), startDate, endDate, offset] as const,
  history: (teamUuid: string, entryId: number) =>
    [...calendarKeys.all(teamUuid), 'history', entryId] as const,
  myBookings: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'mybookings'] as const,
  timeZone: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'timezone'] as const,
  invitation: (ciid: number, selector: string) => ['calendarInvitation', ciid, selector] as const,
};

// ---- fetchers ----

/** The calendars the caller may see (photographers: no external ones) and the team's zone. */
export const fetchCalendars = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(r.getCalendars, { teamUuid, signal });

export const fetchEntries = (
  teamUuid: string,
  body: { calendarIds: readonly number[]; startDate: string; endDate?: string; offset?: number },
  signal?: AbortSignal,
) =>
  callRoute(r.postCalendarEntries, {
    teamUuid,
    body: { ...body, calendarIds: [...body.calendarIds] },
    signal,
  });

export const fetchMyBookings = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(r.getMyBookings, { teamUuid, query: {}, signal }).then((answer) => answer.bookings);

export const fetchHistory = (teamUuid: string, entryId: number, signal?: AbortSignal) =>
  callRoute(r.getBookingHistory, { teamUuid, params: { id: entryId }, signal }).then(
    (answer) => answer.history,
  );

export const fetchTimeZone = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(r.getTimeZone, { teamUuid, signal }).then((answer) => answer.timeZone);

/** Event category definitions (spec §3) as stored in the team's config file `{category}.json`. */
export const fetchCategoryFile = (teamUuid: string, category: string, signal?: AbortSignal) =>
  fetchConfigFileByName(teamUuid, `${category}.json`, signal).then((file) => file.text);

export const postEntry = (teamUuid: string, calendarId: number, body: EntryBody) =>
  callRoute(r.postCalendarEntry, { teamUuid, params: { dbcalendarid: calendarId }, body });
export const putEntry = (teamUuid: string, calendarId: number, id: number, body: EntryBody) =>
  callRoute(r.putCalendarEntry, { teamUuid, params: { dbcalendarid: calendarId, id }, body });
export const deleteEntry = (teamUuid: string, id: number) =>
  callRoute(r.deleteCalendarEntry, { teamUuid, params: { id } });
/** An external entry becomes a team event in the default calendar (spec §2 row icon 'create'). */
export const copyEntry = (teamUuid: string, id: number) =>
  callRoute(r.copyCalendarEntry, { teamUuid, params: { id } });
export const putEntryDecision = (teamUuid: string, id: number, decision: 'confirm' | 'cancel') =>
  callRoute(decision === 'confirm' ? r.confirmCalendarEntry : r.cancelCalendarEntry, {
    teamUuid,
    params: { id },
  });
export const putEntryFlag = (teamUuid: string, id: number, bit: number, value: boolean) =>
  callRoute(r.putEntryFlag, { teamUuid, params: { id, bit }, body: { value } });
export const postSuggestEntries = (
  teamUuid: string,
  body: { userIds: number[]; entryIds: number[]; language: 'en' | 'de' },
) => callRoute(r.postSuggestEntries, { teamUuid, body });

export type BookingChange = {
  entryId: number;
  userId: number;
  bookingState?: BookingState;
  accreditation?: Accreditation;
};
export const postBooking = (teamUuid: string, body: BookingChange) =>
  callRoute(r.postBooking, { teamUuid, body });
export const postMyAnswer = (teamUuid: string, entryId: number, answer: 'accepted' | 'rejected') =>
  callRoute(r.postMyBookingAnswer, { teamUuid, params: { id: entryId }, body: { answer } });

export const putTimeZone = (teamUuid: string, timeZone: string) =>
  callRoute(r.putTimeZone, { teamUuid, body: { timeZone } });

/** Not team-scoped: the mailed link carries token and selector (spec §7 'Account'). */
export const fetchInvitation = (ciid: number, token: string, selector: string, signal?: AbortSignal) =>
  callRoute(invitationRoutes.getInvitation, { params: { ciid }, query: { token, selector }, signal });
export const postConfirmInvitation = (
  ciid: number,
  body: { token: string; selector: string; answer: 'accepted' | 'rejected' },
) => callRoute(invitationRoutes.confirmInvitation, { params: { ciid }, body });

/** Answers with the entry's XMP sidecar as an attachment. */
export const entryXmpUrl = (teamUuid: string, entryId: number) =>
  routeUrl(r.getCalendarXmp, { teamUuid, params: { entryId } });

// ---- queries ----

export const useCalendars = (teamUuid: string) =>
  useQuery({
    queryKey: calendarKeys.calendars(teamUuid),
    queryFn: ({ signal }) => fetchCalendars(teamUuid, signal),
  });

/** One page of the table (the server answers calendarPageSize entries from `offset` and the total). */
/** The entries starting in [startDate, endDate) (yyyy-mm-dd in the team's zone), one page from `offset`. */
export const useEntries = (
  teamUuid: string,
  calendarIds: readonly number[],
  startDate: string,
  endDate: string,
  offset = 0,
) =>
  useQuery({
    queryKey: calendarKeys.entries(teamUuid, calendarIds, startDate, endDate, offset),
    queryFn: ({ signal }) => fetchEntries(teamUuid, { calendarIds, startDate, endDate, offset }, signal),
    // Two operators editing one booking see each other's change on reload (issue 12).
    staleTime: 0,
    enabled: calendarIds.length > 0,
    placeholderData: (previous) => previous,
  });

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
  });

/** The team's zone for rendering (default Europe/Berlin). */
export const useTeamTimeZone = (teamUuid: string, enabled = true) =>
  useQuery({
    queryKey: calendarKeys.timeZone(teamUuid),
    queryFn: ({ signal }) => fetchTimeZone(teamUuid, signal),
    staleTime: 60_000,
    enabled,
  });

export const useCategoryFile = (teamUuid: string, category: string) =>
  useQuery({
    queryKey: [...teamScope(teamUuid), 'configfiles', 'byName', `${category}.json`] as const,
    queryFn: ({ signal }) => fetchCategoryFile(teamUuid, category, signal),
    staleTime: 60_000,
    // Without the file the dialog offers no subcategories; the page says nothing more.
    meta: handlesAllErrors,
  });

export const useInvitation = (ciid: number, token: string, selector: string, enabled: boolean) =>
  useQuery({
    queryKey: calendarKeys.invitation(ciid, selector),
    queryFn: ({ signal }) => fetchInvitation(ciid, token, selector, signal),
    enabled,
    retry: false,
    // The page shows its own texts (spec §8 'Photographer invitation').
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
    onSuccess: invalidate,
  });
}

/** Spec §7 `DELETE team/calendar/{dbcalendarid}` for an external calendar (the ICS issue serves it). */
export function useDeleteCalendar(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: (id: number) =>
      callRoute(externalRoutes.deleteExternalCalendar, { teamUuid, params: { dbcalendarid: id } }),
    onSettled: invalidate,
  });
}

/** 'Refresh' of an external calendar: the spec's async command updateexternalcalendar. */
/** Refreshes one external calendar; its entries and the marked team copies are read again after it. */
export function useRefreshCalendar(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  const command = useCommand(teamUuid, externalRoutes.updateExternalCalendar);
  return {
    ...command,
    mutate: (body: { calendarRefName: string }, options?: Parameters<typeof command.mutate>[1]) =>
      command.mutate(body, {
        ...options,
        onSettled: (...args) => {
          void invalidate();
          options?.onSettled?.(...args);
        },
      }),
  };
}

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

export function useEntryFlag(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: ({ id, bit, value }: { id: number; bit: number; value: boolean }) =>
      putEntryFlag(teamUuid, id, bit, value),
    onSettled: invalidate,
  });
}

export function useSuggestEntries(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: (body: { userIds: number[]; entryIds: number[]; language: 'en' | 'de' }) =>
      postSuggestEntries(teamUuid, body),
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

export function useAnswerInvitation(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: ({ entryId, answer }: { entryId: number; answer: 'accepted' | 'rejected' }) =>
      postMyAnswer(teamUuid, entryId, answer).then((result) => result.booking),
    onSettled: invalidate,
  });
}

export function useSaveTimeZone(teamUuid: string) {
  const invalidate = useInvalidateCalendar(teamUuid);
  return useMutation({
    mutationFn: (timeZone: string) => putTimeZone(teamUuid, timeZone),
    onSettled: invalidate,
  });
}

export const useConfirmInvitation = () =>
  useMutation({
    mutationFn: ({
      ciid,
      ...body
    }: {
      ciid: number;
      token: string;
      selector: string;
      answer: 'accepted' | 'rejected';
    }) => postConfirmInvitation(ciid, body),
    meta: handlesAllErrors,
  });
