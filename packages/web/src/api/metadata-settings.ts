// Issue 15: the project's metadata settings ("hold pictures that cannot be stamped").
import type { MetadataSettings, PutMetadataSettingsBody } from '@photorelay/contract/metadata';
import * as routes from '@photorelay/contract/metadata';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { metadataKeys } from './metadata.ts';

const settingsKey = (teamUuid: string, projectId: number) =>
  [...metadataKeys.all(teamUuid), 'settings', projectId] as const;

export const useMetadataSettings = (teamUuid: string, projectId: number) =>
  useQuery({
    queryKey: settingsKey(teamUuid, projectId),
    queryFn: ({ signal }) =>
      callRoute(routes.getMetadataSettings, { teamUuid, params: { id: projectId }, signal }),
  });

export function useSaveMetadataSettings(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = settingsKey(teamUuid, projectId);
  return useMutation({
    mutationFn: (settings: PutMetadataSettingsBody) =>
      callRoute(routes.putMetadataSettings, { teamUuid, params: { id: projectId }, body: settings }),
    onSuccess: (_result, settings) =>
      queryClient.setQueryData<MetadataSettings>(key, (old) => (old ? { ...old, ...settings } : undefined)),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
