// Issue 16 "pictures, not only rows": an upload's thumbnail and preview (plain image URLs, the
// session cookie goes along), the caption and credit it was sent with, and today's pictures.
import * as routes from '@photorelay/contract/jobs';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRoute, routeUrl } from './call.ts';
import { teamScope } from './client.ts';

export type { RecentUpload } from '@photorelay/contract/jobs';
export type PictureSize = (typeof routes.uploadPictureSizes)[number];

/** The `src` of an upload's picture: 'small' (160 px thumbnail) or 'large' (960 px preview). */
export const uploadPictureUrl = (teamUuid: string, uploadId: number, size: PictureSize) =>
  routeUrl(routes.getUploadPicture, { teamUuid, params: { id: uploadId }, query: { size } });

export const pictureKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'pictures'] as const,
  caption: (teamUuid: string, uploadId: number) =>
    [...pictureKeys.all(teamUuid), 'caption', uploadId] as const,
  recent: (teamUuid: string, since: string, limit: number) =>
    [...pictureKeys.all(teamUuid), 'recent', since, limit] as const,
};

export const useUploadCaption = (teamUuid: string, uploadId: number | null) =>
  useQuery({
    queryKey: pictureKeys.caption(teamUuid, uploadId ?? 0),
    queryFn: ({ signal }) =>
      callRoute(routes.getUploadCaption, { teamUuid, params: { id: uploadId ?? 0 }, signal }),
    enabled: uploadId !== null,
    staleTime: 60_000,
  });

/** The local midnight of today, as the server's "since". */
export function startOfToday(now = new Date()) {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}

/** Pictures since `since`, newest first; live: asked for every second while the page is visible. */
export const recentUploadsQueryOptions = (
  teamUuid: string,
  since: string,
  limit: number,
  refreshMs: number,
) =>
  queryOptions({
    queryKey: pictureKeys.recent(teamUuid, since, limit),
    queryFn: ({ signal }) =>
      callRoute(routes.getRecentUploads, { teamUuid, query: { since, limit }, signal }).then(
        (a) => a.uploads,
      ),
    refetchInterval: refreshMs,
  });

export const useRecentUploads = (teamUuid: string, since: string, limit: number, refreshMs: number) =>
  useQuery(recentUploadsQueryOptions(teamUuid, since, limit, refreshMs));
