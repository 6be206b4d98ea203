// Issue 15: the project's metadata settings ("hold pictures that cannot be stamped").
import { okResult } from '@photorelay/contract/common';
import { type MetadataSettings, metadataSettings } from '@photorelay/contract/metadata';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPut, teamPath } from './client.ts';
import { metadataKeys } from './metadata.ts';

const settingsKey = (teamUuid: string, projectId: number) =>
  [...metadataKeys.all(teamUuid), 'settings', projectId] as const;
const settingsPath = (projectId: number) => `project/${projectId}/metadatasettings`;

export const useMetadataSettings = (teamUuid: string, projectId: number) =>
  useQuery({
    queryKey: settingsKey(teamUuid, projectId),
    queryFn: ({ signal }) =>
      apiGet(teamPath(teamUuid, settingsPath(projectId)), { schema: metadataSettings, signal }),
  });

export function useSaveMetadataSettings(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const key = settingsKey(teamUuid, projectId);
  return useMutation({
    mutationFn: (settings: MetadataSettings) =>
      apiPut(teamPath(teamUuid, settingsPath(projectId)), settings, { schema: okResult }),
    onSuccess: (_result, settings) => queryClient.setQueryData(key, settings),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
