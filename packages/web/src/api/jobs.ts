// Job calls of spec §7 ('Projects'): the per-project summary shown on the dashboard, the paged
// job list of a project's protocol tab and 'retry now'.
import type { Job } from '@photorelay/contract/jobs';
import * as routes from '@photorelay/contract/jobs';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';

export type { Job };

export type JobSummaryRow = {
  projectid: number;
  project: string;
  ftpserver: string | null;
  /** Older servers do not send it: then it is an FTP server. */
  destination?: 'ftpserver' | 'project';
  jobcount: number;
  failedjobcount: number;
  /** Issue 15: deliveries of pictures that could not be stamped, held back or sent unstamped. */
  heldjobcount?: number;
  unstampedjobcount?: number;
  /** Issue 16: jobs waiting for a retry after a failed try, the newest error, failing now. */
  retryingjobcount?: number;
  lasterror?: string | null;
  failing?: boolean;
};

/** Projects with a destination that is failing now (the tree's badge). */
export const failingProjects = (rows: readonly JobSummaryRow[]) =>
  new Set(rows.filter((row) => row.failing).map((row) => row.projectid));

export const jobKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'jobs'] as const,
  summary: (teamUuid: string) => [...jobKeys.all(teamUuid), 'summary'] as const,
  project: (teamUuid: string, projectId: number) => [...jobKeys.all(teamUuid), 'project', projectId] as const,
  page: (teamUuid: string, projectId: number, pageSize: number, pageIndex: number) =>
    [...jobKeys.project(teamUuid, projectId), pageSize, pageIndex] as const,
};

// ---- fetchers ----

export const fetchJobSummary = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.getJobSummary, { teamUuid, body: {}, signal }).then(
    (answer): JobSummaryRow[] => answer.summary,
  );

export const fetchJobPage = (
  teamUuid: string,
  projectId: number,
  pageSize: number,
  pageIndex: number,
  signal?: AbortSignal,
) =>
  callRoute(routes.listJobs, {
    teamUuid,
    params: { pageSize, pageIndex },
    body: { projectid: projectId },
    signal,
  });

export const postRetryJob = (teamUuid: string, jobId: number) =>
  callRoute(routes.retryJob, { teamUuid, params: { id: jobId } });

// ---- queries ----

export const jobSummaryQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: jobKeys.summary(teamUuid),
    queryFn: ({ signal }) => fetchJobSummary(teamUuid, signal),
    // The dashboard's and the tree's failing destinations show within seconds.
    refetchInterval: 10_000,
  });

export const useJobSummary = (teamUuid: string) => useQuery(jobSummaryQueryOptions(teamUuid));

/** States in which a job still changes by itself (the protocol tab's "Live" chip). */
export const isLiveJob = (job: Pick<Job, 'state'>) => job.state === 'scheduled' || job.state === 'running';
/**
 * The job log asks every second while the page is visible (not in a background tab): new jobs
 * appear and change state within a second (issue 16). A page is one indexed query and a count.
 */
export const liveRefreshMs = 1_000;

export const jobPageQueryOptions = (
  teamUuid: string,
  projectId: number,
  pageSize: number,
  pageIndex: number,
) =>
  queryOptions({
    queryKey: jobKeys.page(teamUuid, projectId, pageSize, pageIndex),
    queryFn: ({ signal }) => fetchJobPage(teamUuid, projectId, pageSize, pageIndex, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: liveRefreshMs,
  });

export const useJobPage = (teamUuid: string, projectId: number, pageSize: number, pageIndex: number) =>
  useQuery(jobPageQueryOptions(teamUuid, projectId, pageSize, pageIndex));

// ---- mutations ----

export function useRetryJob(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: number) => postRetryJob(teamUuid, jobId),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: jobKeys.project(teamUuid, projectId) }),
        queryClient.invalidateQueries({ queryKey: jobKeys.summary(teamUuid) }),
      ]),
  });
}
