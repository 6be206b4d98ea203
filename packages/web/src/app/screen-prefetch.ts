// What a screen asks the server for first, started as soon as the session names the team instead
// of after the screen's code has arrived and rendered (issue 28 item 8: the dashboard took
// 1.4 s cold, most of it requests waiting on code that waited on the app's start). Quietly: a
// screen's own queries report failures when it shows.
import type { QueryClient } from '@tanstack/react-query';
import { folderTreeQueryOptions } from '../api/folders.ts';
import { ftpServerHealthQueryOptions, ftpServersQueryOptions } from '../api/ftpservers.ts';
import { jobSummaryQueryOptions } from '../api/jobs.ts';
import { picturesQueryOptions } from '../api/picture-log.ts';
import { recentUploadsQueryOptions, startOfToday } from '../api/pictures.ts';
import { handlesAllErrors } from '../api/query-client.ts';
import { membersQueryOptions } from '../api/teams.ts';

type Prefetch = (queryClient: QueryClient, teamUuid: string) => void;

const quietly = <T extends { queryKey: readonly unknown[] }>(queryClient: QueryClient, options: T) =>
  void queryClient.prefetchQuery({ ...options, meta: handlesAllErrors } as Parameters<
    QueryClient['prefetchQuery']
  >[0]);

/**
 * By route path: the screen's first data (the same query keys its components use). The drawer's
 * tree and the failing destinations are asked for by the shell as it renders; only screens that
 * show them in their main content ask early, so on the others (the metadata tab) they do not go
 * before the screen's own data (PGlite answers one query at a time).
 */
export const screenData: Record<string, Prefetch> = {
  '/': (queryClient, teamUuid) => {
    quietly(queryClient, jobSummaryQueryOptions(teamUuid));
    quietly(queryClient, recentUploadsQueryOptions(teamUuid, startOfToday(), 12, 10_000));
    quietly(queryClient, folderTreeQueryOptions(teamUuid));
  },
  '/team/ftpservers': (queryClient, teamUuid) => {
    quietly(queryClient, ftpServersQueryOptions(teamUuid));
    quietly(queryClient, ftpServerHealthQueryOptions(teamUuid));
    quietly(queryClient, folderTreeQueryOptions(teamUuid));
  },
  '/users': (queryClient, teamUuid) => quietly(queryClient, membersQueryOptions(teamUuid)),
  '/pictures': (queryClient, teamUuid) =>
    quietly(queryClient, picturesQueryOptions(teamUuid, { from: startOfToday() }, 200, 0)),
};
