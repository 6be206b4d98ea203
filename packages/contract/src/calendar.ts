// Event calendar (issue 12; spec §3 "Calendar", "Calendar entry", "Booking", §4, §5, §7 "Calendar"):
// the routes; the schemas are in calendar-schemas.ts and exported from here too.
// Stability: shapes here only grow (additive changes). A changed shape is announced on this line.
// 17:20: the routes are now `teamRoute` declarations (same names, paths and shapes; getCalendar
// needs read on the calendar node), each also exported on its own.
import { z } from 'zod';
import {
  calendarEntryBody,
  confirmInvitationBody,
  confirmInvitationResponse,
  copyEntryResponse,
  deleteTeamFlagQuery,
  entryStateResponse,
  flagBitParam,
  getBookingHistoryResponse,
  getCalendarEntryResponse,
  getCalendarResponse,
  getCalendarsResponse,
  getInvitationResponse,
  getMyBookingsResponse,
  getTeamFlagsResponse,
  getTimeZoneResponse,
  invitationParams,
  invitationQuery,
  myBookingsQuery,
  postBookingBody,
  postBookingResponse,
  postCalendarEntriesBody,
  postCalendarEntriesResponse,
  postCalendarEntryResponse,
  postMyBookingAnswerBody,
  postMyBookingAnswerResponse,
  postSuggestEntriesBody,
  postSuggestEntriesResponse,
  putCalendarEntryResponse,
  putEntryFlagBody,
  putEntryFlagResponse,
  putTimeZoneBody,
  teamFlagBody,
  xmpDownloadResponse,
} from './calendar-schemas.ts';
import { idParam, okResult } from './common.ts';
import { forMembers, forNode, forTeamAdmins, forUsers, teamRoute, userRoute } from './route.ts';

export * from './calendar-schemas.ts';

// --- routes ---------------------------------------------------------------------------------
// Team routes (path relative to /api/:teamUuid), also exported one by one.
const id = z.object({ id: idParam });
const conflict = ['Conflict'] as const;

export const getCalendars = teamRoute({
  method: 'GET',
  path: '/calendars',
  response: getCalendarsResponse,
  access: forMembers,
  summary: "The team's calendars this member may see, and the team's time zone",
});
export const getCalendar = teamRoute({
  method: 'GET',
  path: '/calendar/:id',
  params: id,
  response: getCalendarResponse,
  access: forNode('read', { kind: 'calendar', param: 'id' }),
});
export const postCalendarEntries = teamRoute({
  method: 'POST',
  path: '/calendar/entries',
  body: postCalendarEntriesBody,
  response: postCalendarEntriesResponse,
  access: forMembers,
  summary: 'Entries starting in [startDate, endDate) of the given calendars, by start time then id',
});
export const getCalendarEntry = teamRoute({
  method: 'GET',
  path: '/calendarentry/:id',
  params: id,
  response: getCalendarEntryResponse,
  access: forMembers,
});
export const postCalendarEntry = teamRoute({
  method: 'POST',
  path: '/calendar/:dbcalendarid/entry',
  params: z.object({ dbcalendarid: idParam }),
  body: calendarEntryBody,
  response: postCalendarEntryResponse,
  errors: conflict,
  access: forTeamAdmins,
});
export const putCalendarEntry = teamRoute({
  method: 'PUT',
  path: '/calendar/:dbcalendarid/entry/:id',
  params: z.object({ dbcalendarid: idParam, id: idParam }),
  body: calendarEntryBody,
  response: putCalendarEntryResponse,
  errors: conflict,
  access: forTeamAdmins,
});
export const deleteCalendarEntry = teamRoute({
  method: 'DELETE',
  path: '/calendar/entry/:id',
  params: id,
  response: okResult,
  errors: conflict,
  access: forTeamAdmins,
});
/** Copies an entry into the team's default calendar (from an external one: remembers the source). */
export const copyCalendarEntry = teamRoute({
  method: 'POST',
  path: '/calendarentry/:id/copy',
  params: id,
  response: copyEntryResponse,
  errors: conflict,
  access: forTeamAdmins,
});
export const confirmCalendarEntry = teamRoute({
  method: 'PUT',
  path: '/calendarentry/:id/confirm',
  params: id,
  response: entryStateResponse,
  access: forMembers,
});
export const cancelCalendarEntry = teamRoute({
  method: 'PUT',
  path: '/calendarentry/:id/cancel',
  params: id,
  response: entryStateResponse,
  errors: conflict,
  access: forTeamAdmins,
});
export const putEntryFlag = teamRoute({
  method: 'PUT',
  path: '/calendarentry/:id/flag/:bit',
  params: z.object({ id: idParam, bit: flagBitParam }),
  body: putEntryFlagBody,
  response: putEntryFlagResponse,
  errors: conflict,
  access: forTeamAdmins,
});
/** The team's own event flags (issue 27 item 8), kept by owners and operators. */
export const getTeamFlags = teamRoute({
  method: 'GET',
  path: '/calendarflags',
  response: getTeamFlagsResponse,
  access: forTeamAdmins,
});
export const postTeamFlag = teamRoute({
  method: 'POST',
  path: '/calendarflags',
  body: teamFlagBody,
  response: getTeamFlagsResponse,
  errors: conflict,
  access: forTeamAdmins,
  summary: 'Adds a flag on the lowest free bit; 409 when all 31 bits are taken',
});
export const putTeamFlag = teamRoute({
  method: 'PUT',
  path: '/calendarflags/:bit',
  params: z.object({ bit: flagBitParam }),
  body: teamFlagBody,
  response: getTeamFlagsResponse,
  access: forTeamAdmins,
  summary: 'Renames a flag',
});
export const deleteTeamFlag = teamRoute({
  method: 'DELETE',
  path: '/calendarflags/:bit',
  params: z.object({ bit: flagBitParam }),
  query: deleteTeamFlagQuery,
  response: getTeamFlagsResponse,
  errors: conflict,
  access: forTeamAdmins,
  summary: 'Removes a flag; one set on entries answers 409 unless force=true, which clears it there',
});
export const postSuggestEntries = teamRoute({
  method: 'POST',
  path: '/calendar/suggestentries',
  body: postSuggestEntriesBody,
  response: postSuggestEntriesResponse,
  errors: ['Conflict', 'SendMailFailed'],
  access: forTeamAdmins,
});
export const postBooking = teamRoute({
  method: 'POST',
  path: '/booking',
  body: postBookingBody,
  response: postBookingResponse,
  errors: conflict,
  access: forTeamAdmins,
  summary: 'Changes a booking by the transitions of spec §4; anything else answers 409 Conflict',
});
export const getBookingHistory = teamRoute({
  method: 'GET',
  path: '/calendarentry/:id/bookinghistory',
  params: id,
  response: getBookingHistoryResponse,
  access: forTeamAdmins,
});
export const getMyBookings = teamRoute({
  method: 'GET',
  path: '/calendar/mybookings',
  query: myBookingsQuery,
  response: getMyBookingsResponse,
  access: forMembers,
});
export const postMyBookingAnswer = teamRoute({
  method: 'POST',
  path: '/calendar/mybookings/:id',
  params: id,
  body: postMyBookingAnswerBody,
  response: postMyBookingAnswerResponse,
  errors: conflict,
  access: forMembers,
});
export const getTimeZone = teamRoute({
  method: 'GET',
  path: '/timezone',
  response: getTimeZoneResponse,
  access: forMembers,
});
export const putTimeZone = teamRoute({
  method: 'PUT',
  path: '/timezone',
  body: putTimeZoneBody,
  response: getTimeZoneResponse,
  access: forTeamAdmins,
});
/** A file download (application/rdf+xml, attachment), not JSON. */
export const getCalendarXmp = teamRoute({
  method: 'GET',
  path: '/calendar/xmp/:entryId',
  params: z.object({ entryId: idParam }),
  response: xmpDownloadResponse,
  errors: conflict,
  access: forTeamAdmins,
});

export const calendarRoutes = {
  getCalendars,
  getCalendar,
  postCalendarEntries,
  getCalendarEntry,
  postCalendarEntry,
  putCalendarEntry,
  deleteCalendarEntry,
  copyCalendarEntry,
  confirmCalendarEntry,
  cancelCalendarEntry,
  putEntryFlag,
  getTeamFlags,
  postTeamFlag,
  putTeamFlag,
  deleteTeamFlag,
  postSuggestEntries,
  postBooking,
  getBookingHistory,
  getMyBookings,
  postMyBookingAnswer,
  getTimeZone,
  putTimeZone,
  getCalendarXmp,
} as const;

/** Outside a team (path under /api): the photographer invitation page; the caller must be signed in. */
export const invitationRoutes = {
  getInvitation: userRoute({
    method: 'GET',
    path: '/calendar/suggestentries/:ciid',
    params: invitationParams,
    query: invitationQuery,
    response: getInvitationResponse,
    errors: ['InvalidToken'],
    access: forUsers,
  }),
  /** Also served at the spec's spelling `/calendar/suggestentries{ciid}/confirm` (no slash). */
  confirmInvitation: userRoute({
    method: 'POST',
    path: '/calendar/suggestentries/:ciid/confirm',
    params: invitationParams,
    body: confirmInvitationBody,
    response: confirmInvitationResponse,
    errors: ['InvalidToken', 'Conflict'],
    access: forUsers,
  }),
};
