// Public operator settings (imprint data) and, for logged-in users, the debug switch.
import * as routes from '@photorelay/contract/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { handlesAllErrors } from './query-client.ts';

export type { DebugSettings, Health, PublicSettings } from '@photorelay/contract/settings';

export const settingsKeys = {
  all: ['settings'] as const,
  public: () => [...settingsKeys.all, 'public'] as const,
  debug: () => [...settingsKeys.all, 'debug'] as const,
  health: () => [...settingsKeys.all, 'health'] as const,
};

export const fetchPublicSettings = (signal?: AbortSignal) => callRoute(routes.getPublicSettings, { signal });

export const publicSettingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.public(),
    queryFn: ({ signal }) => fetchPublicSettings(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const usePublicSettings = () => useQuery(publicSettingsQueryOptions());

/** Whether DEBUG_ADMIN is on: asked only by logged-in pages, never announced to visitors. */
export const fetchDebugSettings = (signal?: AbortSignal) => callRoute(routes.getDebugSettings, { signal });

export const debugSettingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.debug(),
    queryFn: ({ signal }) => fetchDebugSettings(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useDebugSettings = (enabled: boolean) => useQuery({ ...debugSettingsQueryOptions(), enabled });

/**
 * The server's health (issue 30 item 6): the dashboard shows a banner while its data disk is full.
 * Asked again every 30 s; a failed answer (database away) shows no banner and no error text.
 */
export const fetchHealth = (signal?: AbortSignal) => callRoute(routes.getHealth, { signal });

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.health(),
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: 30_000,
    meta: handlesAllErrors,
  });

export const useHealth = () => useQuery(healthQueryOptions());
