// Team-scoped membership calls: the caller's groups in the current team.
import { getGroupsResponse } from '@photorelay/contract/teams';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, teamPath, teamScope } from './client.ts';

export type GroupName = 'Owner' | 'Operator' | 'Photographer';
export type Group = {
  dbgroupid: number;
  name: GroupName | string;
  localizedName: string;
  has_all_permissions: boolean;
};

export const teamKeys = {
  scope: teamScope,
  myGroups: (teamUuid: string) => [...teamScope(teamUuid), 'user', 'groups'] as const,
};

export async function fetchMyGroups(teamUuid: string, signal?: AbortSignal): Promise<Group[]> {
  const { groups } = await apiGet(teamPath(teamUuid, 'user/groups'), { schema: getGroupsResponse, signal });
  // Spec §3, §8: a user must be in exactly one group; anything else is logged, not shown.
  if (groups.length !== 1)
    console.error(`User is in ${groups.length} groups of team ${teamUuid}; expected exactly one`);
  return groups;
}

export const myGroupsQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: teamKeys.myGroups(teamUuid),
    queryFn: ({ signal }) => fetchMyGroups(teamUuid, signal),
    staleTime: 60_000,
  });

export const useMyGroups = (teamUuid: string | undefined) =>
  useQuery({ ...myGroupsQueryOptions(teamUuid ?? ''), enabled: Boolean(teamUuid) });
