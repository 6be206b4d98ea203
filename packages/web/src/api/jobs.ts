// Job calls of spec §7 ('Projects'): the per-project summary shown on the dashboard.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPost, teamPath, teamScope } from './client.ts';

export type JobSummaryRow = {
  projectid: number;
  project: string;
  ftpserver: string | null;
  jobcount: number;
  failedjobcount: number;
};

export const jobKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'jobs'] as const,
  summary: (teamUuid: string) => [...jobKeys.all(teamUuid), 'summary'] as const,
};

export const fetchJobSummary = (teamUuid: string, signal?: AbortSignal) =>
  apiPost<{ summary: JobSummaryRow[] }>(teamPath(teamUuid, 'jobs/summary'), {}, { signal }).then(
    (answer) => answer.summary,
  );

export const jobSummaryQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: jobKeys.summary(teamUuid),
    queryFn: ({ signal }) => fetchJobSummary(teamUuid, signal),
    refetchInterval: 30_000,
  });

export const useJobSummary = (teamUuid: string) => useQuery(jobSummaryQueryOptions(teamUuid));
