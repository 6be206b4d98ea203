// Public operator settings (imprint data, feature switches).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './client.ts';

export type PublicSettings = {
  operatorName: string;
  operatorAddress: string;
  operatorEmail: string;
  debugAdmin: boolean;
  publicFtpHost: string;
};

export const settingsKeys = {
  all: ['settings'] as const,
  public: () => [...settingsKeys.all, 'public'] as const,
};

export const fetchPublicSettings = (signal?: AbortSignal) =>
  apiGet<PublicSettings>('settings/public', { signal });

export const publicSettingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.public(),
    queryFn: ({ signal }) => fetchPublicSettings(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const usePublicSettings = () => useQuery(publicSettingsQueryOptions());
