// Issue 28: the job log one picture a row (project protocol tab, phone page), "Retry all
// failed" and "Send again".
import type { ListPicturesResponse, PictureFilter } from '@photorelay/contract/jobs';
import * as routes from '@photorelay/contract/jobs';
import * as metadataRoutes from '@photorelay/contract/metadata';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import { jobKeys, liveRefreshMs } from './jobs.ts';

export type {
  DestinationProblem,
  FailureCause,
  ListPicturesResponse,
  PictureDelivery,
  PictureFilter,
  PictureRow,
  PictureStateFilter,
} from '@photorelay/contract/jobs';
export { pictureStateFilters } from '@photorelay/contract/jobs';

export const pictureLogKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'pictureLog'] as const,
  page: (teamUuid: string, filter: PictureFilter, pageSize: number, pageIndex: number) =>
    [...pictureLogKeys.all(teamUuid), filter, pageSize, pageIndex] as const,
};

export const fetchPictures = (
  teamUuid: string,
  filter: PictureFilter,
  pageSize: number,
  pageIndex: number,
  signal?: AbortSignal,
): Promise<ListPicturesResponse> =>
  callRoute(routes.listPictures, { teamUuid, params: { pageSize, pageIndex }, body: filter, signal });

export const picturesQueryOptions = (
  teamUuid: string,
  filter: PictureFilter,
  pageSize: number,
  pageIndex: number,
) =>
  queryOptions({
    queryKey: pictureLogKeys.page(teamUuid, filter, pageSize, pageIndex),
    queryFn: ({ signal }) => fetchPictures(teamUuid, filter, pageSize, pageIndex, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Live like the job log was (issue 16): one indexed page, a count and the failing destinations.
    refetchInterval: liveRefreshMs,
  });

export const usePictures = (teamUuid: string, filter: PictureFilter, pageSize: number, pageIndex: number) =>
  useQuery(picturesQueryOptions(teamUuid, filter, pageSize, pageIndex));

function useInvalidateJobs(teamUuid: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: pictureLogKeys.all(teamUuid) }),
      queryClient.invalidateQueries({ queryKey: jobKeys.all(teamUuid) }),
    ]);
}

export function useRetryFailed(teamUuid: string) {
  const invalidate = useInvalidateJobs(teamUuid);
  return useMutation({
    mutationFn: (scope: { projectid?: number; destination?: string; jobIds?: number[] }) =>
      callRoute(routes.retryFailed, { teamUuid, body: scope }).then((a) => a.retried),
    onSettled: invalidate,
  });
}

export function useSendAgain(teamUuid: string) {
  const invalidate = useInvalidateJobs(teamUuid);
  return useMutation({
    mutationFn: ({ uploadId, destinations }: { uploadId: number; destinations?: string[] }) =>
      callRoute(routes.sendAgain, {
        teamUuid,
        params: { id: uploadId },
        body: destinations ? { destinations } : {},
      }).then((a) => a.jobs),
    onSettled: invalidate,
  });
}

/** Issue 26: a picture held because no metadata could be written goes out as it is. */
export function useReleaseHeld(teamUuid: string) {
  const invalidate = useInvalidateJobs(teamUuid);
  return useMutation({
    mutationFn: (uploadId: number) =>
      callRoute(metadataRoutes.releaseHeld, { teamUuid, params: { id: uploadId } }).then((a) => a.released),
    onSettled: invalidate,
  });
}
