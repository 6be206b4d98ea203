// External calendars (issue 13; spec §2 "Calendar page", §3 "Calendar", §5 "External calendar URL",
// §7 "Calendar") and the per-member iCalendar feed.
import { z } from 'zod';
import { commandStarted } from './commands.ts';
import { fileDownload, idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forAnyone, forMembers, forNode, forTeamAdmins, teamRoute, userRoute } from './route.ts';

/** The kind stored in calendars.type for a feed (spec §3: "google is the external kind"). */
export const externalCalendarType = 'google';

export const externalCalendarTexts = {
  urlTooShort: 'The address must have at least 3 characters',
  defaultNotDeletable: 'The default calendar cannot be deleted',
  refreshRunning: 'This calendar is being refreshed; try again in a moment',
  tooManyCalendars: `A team can have at most ${limits.externalCalendarsPerTeam} external calendars`,
  tooManyEntries: `The team's external calendars would hold more than ${limits.importedEntriesPerTeam.toLocaleString('en')} entries`,
} as const;

export const externalCalendar = z.object({
  dbcalendarid: z.number(),
  name: z.string(),
  refname: z.string(),
  type: z.string(),
  url: z.string(),
  /** ISO instant of the last successful fetch, null before the first. */
  refreshedAt: z.string().nullable(),
  /** Why the last refresh failed (the server's text), null when it worked. */
  lastError: z.string().nullable(),
  entryCount: z.number(),
});
export type ExternalCalendar = z.infer<typeof externalCalendar>;
export const getExternalCalendarsResponse = z.object({ calendars: z.array(externalCalendar) });

/** Spec §5: trimmed, at least 3 characters. */
export const createExternalCalendarBody = z.object({
  calendarUrl: z.string().trim().min(3, externalCalendarTexts.urlTooShort).max(2000),
});
export const updateExternalCalendarBody = z.object({ calendarRefName: z.string().trim().min(1).max(200) });

/** The `detail` of a finished create or update command. */
export const externalCalendarCommandDetail = z.object({
  dbcalendarid: z.number(),
  name: z.string(),
  refname: z.string(),
  notModified: z.boolean(),
  inserted: z.number(),
  updated: z.number(),
  removed: z.number(),
  skipped: z.number(),
});
export type ExternalCalendarCommandDetail = z.infer<typeof externalCalendarCommandDetail>;

export const getCalendarFeedResponse = z.object({
  /** The secret subscription URL, null when the member has none (or revoked it). */
  url: z.string().nullable(),
  webcalUrl: z.string().nullable(),
});

/**
 * Event-aware stamping, a project setting: on, a picture whose capture time falls within an
 * event of the team's default calendar with a booked photographer gets the event's fields where
 * the project's template (and the picture itself) leave them unset.
 */
export const eventStampingSetting = z.object({ eventStamping: z.boolean() });
export type EventStampingSetting = z.infer<typeof eventStampingSetting>;

/** What the event step wrote into an upload's processing detail (`processing.eventStamp`). */
export const eventStampDetail = z.union([
  z.object({
    /** The event applied: its entry id, summary and times (ISO instants). */
    entryId: z.number(),
    summary: z.string(),
    startAt: z.string(),
    endAt: z.string(),
    /** The catalog properties filled. */
    fields: z.array(z.string()),
  }),
  /** Several booked events at the capture time and none of them the camera's photographer's alone. */
  z.object({ ambiguous: z.array(z.object({ entryId: z.number(), summary: z.string() })) }),
]);
export type EventStampDetail = z.infer<typeof eventStampDetail>;

// ---- routes ----

/** Photographers never see external calendars (spec §6): the list is for owners and operators. */
export const listExternalCalendars = teamRoute({
  method: 'GET',
  path: '/externalcalendars',
  response: getExternalCalendarsResponse,
  access: forTeamAdmins,
});

export const deleteExternalCalendar = teamRoute({
  method: 'DELETE',
  path: '/calendar/:dbcalendarid',
  params: z.object({ dbcalendarid: idParam }),
  response: okResult,
  errors: ['Conflict'],
  access: forTeamAdmins,
});

export const createExternalCalendar = teamRoute({
  method: 'POST',
  path: '/command/createexternalcalendar',
  body: createExternalCalendarBody,
  response: commandStarted,
  access: forTeamAdmins,
});

export const updateExternalCalendar = teamRoute({
  method: 'POST',
  path: '/command/updateexternalcalendar',
  body: updateExternalCalendarBody,
  response: commandStarted,
  access: forTeamAdmins,
});

/** The member's own feed URL (profile page); POST makes a new secret (revoking the old), DELETE revokes. */
export const getCalendarFeed = teamRoute({
  method: 'GET',
  path: '/calendarfeed',
  response: getCalendarFeedResponse,
  access: forMembers,
});
export const renewCalendarFeed = teamRoute({
  method: 'POST',
  path: '/calendarfeed',
  response: getCalendarFeedResponse,
  access: forMembers,
});
export const revokeCalendarFeed = teamRoute({
  method: 'DELETE',
  path: '/calendarfeed',
  response: getCalendarFeedResponse,
  access: forMembers,
});

/** The subscription itself, under /api without a session: calendar apps know only the URL (`<token>.ics`). */
export const getPublicCalendarFeed = userRoute({
  method: 'GET',
  path: '/calendarfeed/:selector/:file',
  params: z.object({
    selector: z.string().min(1).max(100),
    file: z.string().min(1).max(200),
  }),
  response: fileDownload,
  errors: ['NotFound'],
  access: forAnyone,
});

const projectId = z.object({ id: idParam });
export const getEventStamping = teamRoute({
  method: 'GET',
  path: '/project/:id/eventstamping',
  params: projectId,
  response: eventStampingSetting,
  access: forNode('read', { kind: 'project', param: 'id' }),
});
export const putEventStamping = teamRoute({
  method: 'PUT',
  path: '/project/:id/eventstamping',
  params: projectId,
  body: eventStampingSetting,
  response: okResult,
  access: forNode('write', { kind: 'project', param: 'id' }),
});
