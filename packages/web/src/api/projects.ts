// Project calls of spec §7 'Projects': the project with its destinations, create, rename, delete,
// destination links, and the overview's hourly statistics and FTP connection log.
import type { DestinationKind, Project } from '@photorelay/contract/projects';
import * as routes from '@photorelay/contract/projects';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import { folderKeys } from './folders.ts';
import { jobKeys } from './jobs.ts';
import { handlesErrorCodes } from './query-client.ts';

export type { Project };
export type ProjectFtpServer = Project['ftpServers'][number];
export type DestinationProject = Project['destinationProjects'][number];

export const projectKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'projects'] as const,
  detail: (teamUuid: string, id: number) => [...projectKeys.all(teamUuid), id] as const,
  stats: (teamUuid: string, id: number, days: number) =>
    [...projectKeys.detail(teamUuid, id), 'stats', days] as const,
  connectionLog: (teamUuid: string, id: number) =>
    [...projectKeys.detail(teamUuid, id), 'connectionLog'] as const,
};

// ---- fetchers ----

export const fetchProject = (teamUuid: string, id: number, signal?: AbortSignal) =>
  callRoute(routes.getProject, { teamUuid, params: { id }, signal }).then((answer) => answer.project);

export const postProject = (teamUuid: string, body: { name: string; parentFolderId: number }) =>
  callRoute(routes.createProject, { teamUuid, body });

export const putProjectName = (teamUuid: string, id: number, name: string) =>
  callRoute(routes.renameProject, { teamUuid, params: { id }, body: { name } });

export const deleteProject = (teamUuid: string, id: number) =>
  callRoute(routes.deleteProject, { teamUuid, params: { id } });

export const fetchProjectStats = (teamUuid: string, id: number, days: number, signal?: AbortSignal) =>
  callRoute(routes.getProjectStats, { teamUuid, params: { id }, query: { days: String(days) }, signal });

export const fetchConnectionLog = (teamUuid: string, id: number, signal?: AbortSignal) =>
  callRoute(routes.getConnectionLog, { teamUuid, params: { id }, signal }).then((answer) => answer.sessions);

/** A destination of a project: an FTP server or another project. */
export type DestinationRef = { kind: DestinationKind; id: number };
const destinationParams = (projectId: number, ref: DestinationRef) => ({ id: projectId, targetId: ref.id });

export const postDestination = (teamUuid: string, projectId: number, ref: DestinationRef) =>
  callRoute(routes.destinationRoutes[ref.kind].add, { teamUuid, params: destinationParams(projectId, ref) });

export const deleteDestination = (teamUuid: string, projectId: number, ref: DestinationRef) =>
  callRoute(routes.destinationRoutes[ref.kind].remove, {
    teamUuid,
    params: destinationParams(projectId, ref),
  });

/** `path` only for FTP servers (empty falls back to the server's own path). */
export type DestinationChange = { path?: string; enabled?: boolean };
export const putDestination = (
  teamUuid: string,
  projectId: number,
  ref: DestinationRef,
  change: DestinationChange,
) =>
  ref.kind === 'ftpserver'
    ? callRoute(routes.destinationRoutes.ftpserver.update, {
        teamUuid,
        params: destinationParams(projectId, ref),
        body: change,
      })
    : // A destination project knows only `enabled`; the server refuses a change without it.
      callRoute(routes.destinationRoutes.destinationproject.update, {
        teamUuid,
        params: destinationParams(projectId, ref),
        body: change as { enabled: boolean },
      });

// ---- queries ----

export const projectQueryOptions = (teamUuid: string, id: number) =>
  queryOptions({
    queryKey: projectKeys.detail(teamUuid, id),
    queryFn: ({ signal }) => fetchProject(teamUuid, id, signal),
    // The page shows 'not found' itself.
    meta: handlesErrorCodes('NotFound'),
  });

export const useProject = (teamUuid: string, id: number) =>
  useQuery({ ...projectQueryOptions(teamUuid, id), enabled: id > 0 });

/** The overview chart's longest range: a week (issue 16: last hour, day or week, from the data). */
export const statsDays = 7;

export const projectStatsQueryOptions = (teamUuid: string, id: number, days = statsDays) =>
  queryOptions({
    queryKey: projectKeys.stats(teamUuid, id, days),
    queryFn: ({ signal }) => fetchProjectStats(teamUuid, id, days, signal),
    refetchInterval: 60_000,
  });

export const useProjectStats = (teamUuid: string, id: number) =>
  useQuery(projectStatsQueryOptions(teamUuid, id));

export const connectionLogQueryOptions = (teamUuid: string, id: number) =>
  queryOptions({
    queryKey: projectKeys.connectionLog(teamUuid, id),
    queryFn: ({ signal }) => fetchConnectionLog(teamUuid, id, signal),
    // Photographers test their camera settings while looking at this list.
    refetchInterval: 5_000,
    staleTime: 0,
  });

export const useConnectionLog = (teamUuid: string, id: number) =>
  useQuery(connectionLogQueryOptions(teamUuid, id));

// ---- mutations ----

export function useCreateProject(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; parentFolderId: number }) => postProject(teamUuid, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) }),
  });
}

export function useRenameProject(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => putProjectName(teamUuid, id, name),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) }),
        queryClient.invalidateQueries({ queryKey: projectKeys.all(teamUuid) }),
        queryClient.invalidateQueries({ queryKey: jobKeys.all(teamUuid) }),
      ]),
  });
}

export function useDeleteProject(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteProject(teamUuid, id),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(teamUuid, id) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) }),
        // Other projects list it as a possible destination; they reload when next shown.
        queryClient.invalidateQueries({ queryKey: projectKeys.all(teamUuid), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: jobKeys.all(teamUuid) }),
      ]);
    },
  });
}

/**
 * Adds, changes or removes a destination. Switches and paths show their new state at once; the
 * project is reloaded once the last of several quick changes is answered, so an earlier reload
 * cannot bring back a state the user has already changed again.
 */
export function useDestinationMutations(teamUuid: string, projectId: number) {
  const queryClient = useQueryClient();
  const queryKey = projectKeys.detail(teamUuid, projectId);
  const mutationKey = [...queryKey, 'destinations'];
  const onSettled = () =>
    queryClient.isMutating({ mutationKey }) === 1 ? queryClient.invalidateQueries({ queryKey }) : undefined;
  const add = useMutation({
    mutationKey,
    mutationFn: (ref: DestinationRef) => postDestination(teamUuid, projectId, ref),
    onSettled,
  });
  const remove = useMutation({
    mutationKey,
    mutationFn: (ref: DestinationRef) => deleteDestination(teamUuid, projectId, ref),
    onSettled,
  });
  const change = useMutation({
    mutationKey,
    mutationFn: ({ ref, change }: { ref: DestinationRef; change: DestinationChange }) =>
      putDestination(teamUuid, projectId, ref, change),
    onMutate: async ({ ref, change }) => {
      // A reload already under way would answer with the state before this change. Cancel it
      // first: cancelling reverts the query to its data from before that fetch, which would
      // undo an update made earlier.
      await queryClient.cancelQueries({ queryKey });
      queryClient.setQueryData<Project>(queryKey, (project) =>
        project ? applyDestinationChange(project, ref, change) : project,
      );
    },
    onSettled,
  });
  return { add, remove, change };
}

/** The project as it looks after `change` (optimistic update of the destinations tab). */
export function applyDestinationChange(
  project: Project,
  ref: DestinationRef,
  change: DestinationChange,
): Project {
  if (ref.kind === 'ftpserver') {
    return {
      ...project,
      ftpServers: project.ftpServers.map((server) =>
        server.id !== ref.id
          ? server
          : {
              ...server,
              ...(change.enabled === undefined ? {} : { enabled: change.enabled }),
              ...(change.path === undefined
                ? {}
                : {
                    path: change.path.trim() || server.defaultpath,
                    overridepath: change.path.trim() || null,
                  }),
            },
      ),
    };
  }
  return {
    ...project,
    destinationProjects: project.destinationProjects.map((destination) =>
      destination.id === ref.id && change.enabled !== undefined
        ? { ...destination, enabled: change.enabled }
        : destination,
    ),
  };
}
