// Config file calls of spec §7 ('Team users, groups, config files'): list, upload or replace,
// delete; downloads go through a hidden frame to `downloadFileUrl`.
import type { configFileInfo } from '@photorelay/contract/configfiles';
import * as routes from '@photorelay/contract/configfiles';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { callRoute, routeUrl } from './call.ts';
import { teamScope } from './client.ts';
import { handlesAllErrors } from './query-client.ts';

export type ConfigFile = z.infer<typeof configFileInfo>;

export const configFileKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'configfiles'] as const,
  list: (teamUuid: string) => [...configFileKeys.all(teamUuid), 'list'] as const,
};

// ---- fetchers ----

export const fetchConfigFiles = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.listConfigFiles, { teamUuid, signal }).then((answer) => answer.files);

/** `content` is a data URL; `dbconfigfileid` replaces that file. */
export type UploadConfigFileBody = { name: string; content: string; dbconfigfileid?: number };
export const postConfigFile = (teamUuid: string, body: UploadConfigFileBody) =>
  callRoute(routes.saveConfigFile, { teamUuid, body });

export const deleteConfigFile = (teamUuid: string, id: number) =>
  callRoute(routes.deleteConfigFile, { teamUuid, params: { id } });

/** Answers with the file as an attachment. */
export const downloadFileUrl = (teamUuid: string, id: number) =>
  routeUrl(routes.downloadConfigFile, { teamUuid, params: { id } });

/** A config file read by name (e.g. a category's option list `sport.json`). */
export const fetchConfigFileByName = (teamUuid: string, name: string, signal?: AbortSignal) =>
  callRoute(routes.readConfigFile, { teamUuid, params: { name }, signal }).then((answer) => answer.file);

// ---- queries ----

export const configFilesQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: configFileKeys.list(teamUuid),
    queryFn: ({ signal }) => fetchConfigFiles(teamUuid, signal),
  });

export const useConfigFiles = (teamUuid: string) => useQuery(configFilesQueryOptions(teamUuid));

// ---- mutations ----

export function useUploadConfigFile(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UploadConfigFileBody) => postConfigFile(teamUuid, body),
    // The page answers every failure with 'File upload failed'.
    meta: handlesAllErrors,
    onSettled: () => queryClient.invalidateQueries({ queryKey: configFileKeys.all(teamUuid) }),
  });
}

export function useDeleteConfigFile(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteConfigFile(teamUuid, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: configFileKeys.all(teamUuid) }),
  });
}
