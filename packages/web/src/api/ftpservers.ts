// FTP server calls of spec §7 'FTP servers': list, one server, create, save (or rename), delete,
// and the 'Test' command.

import type { FtpServerBody, ftpServer } from '@photorelay/contract/ftpservers';
import * as routes from '@photorelay/contract/ftpservers';
import type { FtpProtocol } from '@photorelay/contract/limits';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { folderKeys } from './folders.ts';
import { jobKeys } from './jobs.ts';
import { projectKeys } from './projects.ts';
import { handlesAllErrors, handlesErrorCodes } from './query-client.ts';

export type FtpServer = z.infer<typeof ftpServer>;
/** What the form sends: the contract's body before its port transform (the port as typed). */
export type FtpServerInput = Omit<FtpServerBody, 'port'> & { port: string };

export const ftpServerKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'ftpservers'] as const,
  list: (teamUuid: string) => [...ftpServerKeys.all(teamUuid), 'list'] as const,
  detail: (teamUuid: string, id: number) => [...ftpServerKeys.all(teamUuid), id] as const,
};

// ---- fetchers ----

export const fetchFtpServers = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.listFtpServers, { teamUuid, signal }).then((answer) => answer.ftpservers);

export const fetchFtpServer = (teamUuid: string, id: number, signal?: AbortSignal) =>
  callRoute(routes.getFtpServer, { teamUuid, params: { id }, signal }).then((answer) => answer.ftpserver);

export const postFtpServer = (teamUuid: string, body: FtpServerInput) =>
  callRoute(routes.createFtpServer, { teamUuid, body });

/** The whole form; an empty password keeps the stored one. */
export const putFtpServer = (teamUuid: string, id: number, body: FtpServerInput) =>
  callRoute(routes.updateFtpServer, { teamUuid, params: { id }, body });

/** A body with only a name renames (the tree's inline rename). */
export const putFtpServerName = (teamUuid: string, id: number, name: string) =>
  callRoute(routes.updateFtpServer, { teamUuid, params: { id }, body: { name } });

export const deleteFtpServer = (teamUuid: string, id: number) =>
  callRoute(routes.deleteFtpServer, { teamUuid, params: { id } });

// ---- queries ----

export const ftpServersQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: ftpServerKeys.list(teamUuid),
    queryFn: ({ signal }) => fetchFtpServers(teamUuid, signal),
  });

export const useFtpServers = (teamUuid: string) => useQuery(ftpServersQueryOptions(teamUuid));

export const ftpServerQueryOptions = (teamUuid: string, id: number) =>
  queryOptions({
    queryKey: ftpServerKeys.detail(teamUuid, id),
    queryFn: ({ signal }) => fetchFtpServer(teamUuid, id, signal),
    // The page shows 'not found' itself.
    meta: handlesErrorCodes('NotFound'),
  });

export const useFtpServer = (teamUuid: string, id: number) =>
  useQuery({ ...ftpServerQueryOptions(teamUuid, id), enabled: id > 0 });

// ---- mutations ----

function useInvalidateServers(teamUuid: string) {
  const queryClient = useQueryClient();
  // Names of servers also show in the tree, on projects' destination lists and in job lists.
  return (except?: readonly unknown[]) =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: ftpServerKeys.all(teamUuid),
        predicate: (query) => !except || JSON.stringify(query.queryKey) !== JSON.stringify(except),
      }),
      queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) }),
      queryClient.invalidateQueries({ queryKey: projectKeys.all(teamUuid) }),
      queryClient.invalidateQueries({ queryKey: jobKeys.summary(teamUuid) }),
    ]);
}

export function useCreateFtpServer(teamUuid: string) {
  const invalidate = useInvalidateServers(teamUuid);
  return useMutation({
    mutationFn: (body: FtpServerInput) => postFtpServer(teamUuid, body),
    onSuccess: () => invalidate(),
  });
}

export function useSaveFtpServer(teamUuid: string) {
  const invalidate = useInvalidateServers(teamUuid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: FtpServerInput }) => putFtpServer(teamUuid, id, body),
    onSuccess: () => invalidate(),
  });
}

export function useRenameFtpServer(teamUuid: string) {
  const invalidate = useInvalidateServers(teamUuid);
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => putFtpServerName(teamUuid, id, name),
    onSettled: () => invalidate(),
  });
}

export function useDeleteFtpServer(teamUuid: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateServers(teamUuid);
  return useMutation({
    mutationFn: (id: number) => deleteFtpServer(teamUuid, id),
    onSuccess: (_answer, id) => {
      // The deleted server's page is still mounted until it navigates away: removing or
      // invalidating its query would fetch it again (a 404, issue 16 bugs). It is left to expire.
      const gone = ftpServerKeys.detail(teamUuid, id);
      void queryClient.cancelQueries({ queryKey: gone, exact: true });
      return invalidate(gone);
    },
  });
}

export type TestFtpServerBody = {
  host: string;
  port: string;
  username: string;
  password: string;
  path: string;
  protocol: FtpProtocol;
  /** With an empty password the server tests with the stored one of this server. */
  ftpserverid?: number;
};

/** 'Test' (spec §7): resolves with 'Success!!!'; a failure carries the server's text. */
export const useTestFtpServer = (teamUuid: string) =>
  useCommand(teamUuid, routes.testFtpServer, handlesAllErrors);

/** Issue 28: each server's last delivery, pictures waiting and last error (list, page, delete). */
export const ftpServerHealthQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: [...ftpServerKeys.all(teamUuid), 'health'] as const,
    queryFn: ({ signal }) =>
      callRoute(routes.listFtpServerHealth, { teamUuid, signal }).then((a) => a.health),
    refetchInterval: 10_000,
  });

export const useFtpServerHealth = (teamUuid: string) => useQuery(ftpServerHealthQueryOptions(teamUuid));
