// External calendars (spec §7 "Calendar": createexternalcalendar) and the member's own calendar
// feed URL (profile page). Listing, refresh and delete of external calendars live in calendar.ts.
import type {
  EventStampingSetting,
  ExternalCalendarCommandDetail,
} from '@photorelay/contract/externalcalendars';
import * as routes from '@photorelay/contract/externalcalendars';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { calendarKeys } from './calendar.ts';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { handlesAllErrors } from './query-client.ts';

export const externalCalendarKeys = {
  feed: (teamUuid: string) => [...teamScope(teamUuid), 'calendarfeed'] as const,
  // Under the calendar's key: adding, refreshing or deleting a calendar updates the counts too.
  list: (teamUuid: string) => [...calendarKeys.all(teamUuid), 'external'] as const,
};

// ---- fetchers ----

export const fetchCalendarFeed = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.getCalendarFeed, { teamUuid, signal });

// ---- queries ----

export const calendarFeedQuery = (teamUuid: string) =>
  queryOptions({
    queryKey: externalCalendarKeys.feed(teamUuid),
    queryFn: ({ signal }) => fetchCalendarFeed(teamUuid, signal),
  });

export const useCalendarFeed = (teamUuid: string) => useQuery(calendarFeedQuery(teamUuid));

/** The team's external calendars with their entry counts (owners and operators). */
export const useExternalCalendars = (teamUuid: string) =>
  useQuery({
    queryKey: externalCalendarKeys.list(teamUuid),
    queryFn: ({ signal }) => callRoute(routes.listExternalCalendars, { teamUuid, signal }),
  });

// ---- mutations ----

/** Adds a feed by URL; its failure text is shown under the URL field, so no global error. */
export function useCreateExternalCalendar(teamUuid: string) {
  const queryClient = useQueryClient();
  const command = useCommand(teamUuid, routes.createExternalCalendar, handlesAllErrors);
  return {
    ...command,
    create: (
      calendarUrl: string,
      options: { onSuccess?: (detail: ExternalCalendarCommandDetail) => void } = {},
    ) =>
      command.mutate(
        { calendarUrl },
        {
          onSuccess: (detail) => {
            void queryClient.invalidateQueries({ queryKey: calendarKeys.all(teamUuid) });
            options.onSuccess?.(detail as ExternalCalendarCommandDetail);
          },
        },
      ),
  };
}

/** A new secret feed URL (the old one stops working), or none. */
export function useChangeCalendarFeed(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: 'renew' | 'revoke') =>
      change === 'renew'
        ? callRoute(routes.renewCalendarFeed, { teamUuid })
        : callRoute(routes.revokeCalendarFeed, { teamUuid }),
    onSuccess: (answer) => queryClient.setQueryData(externalCalendarKeys.feed(teamUuid), answer),
  });
}

// ---- event-aware stamping (a project setting) ----

const eventStampingKey = (teamUuid: string, projectId: number) =>
  [...teamScope(teamUuid), 'eventstamping', projectId] as const;

export const useEventStamping = (teamUuid: string, projectId: number) =>
  useQuery({
    queryKey: eventStampingKey(teamUuid, projectId),
    queryFn: ({ signal }) =>
      callRoute(routes.getEventStamping, { teamUuid, params: { id: projectId }, signal }),
  });

export function useSaveEventStamping(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = eventStampingKey(teamUuid, projectId);
  return useMutation({
    mutationFn: (setting: EventStampingSetting) =>
      callRoute(routes.putEventStamping, { teamUuid, params: { id: projectId }, body: setting }),
    onSuccess: (_result, setting) => queryClient.setQueryData(key, setting),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
