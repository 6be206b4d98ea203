// Team-scoped membership calls (spec §7 'Team users, groups'): the caller's groups in the current
// team, and the user management of owners and operators.
import type { teamMember } from '@photorelay/contract/teams';
import * as routes from '@photorelay/contract/teams';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type AcceptInviteBody, postAcceptInvite } from './account.ts';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import type { ErrorMeta } from './query-client.ts';

export type GroupName = 'Owner' | 'Operator' | 'Photographer';
export type Group = {
  dbgroupid: number;
  name: GroupName | string;
  localizedName: string;
  has_all_permissions: boolean;
};
export type TeamMember = z.infer<typeof teamMember>;
export type InviteResult = 'ALREADY_OK' | 'ADDED_OK' | 'INVITATION_PENDING';

export const teamKeys = {
  scope: teamScope,
  myGroups: (teamUuid: string) => [...teamScope(teamUuid), 'user', 'groups'] as const,
  members: (teamUuid: string) => [...teamScope(teamUuid), 'members'] as const,
  groups: (teamUuid: string) => [...teamScope(teamUuid), 'groups'] as const,
};

// ---- fetchers ----

export async function fetchMyGroups(teamUuid: string, signal?: AbortSignal): Promise<Group[]> {
  const { groups } = await callRoute(routes.getMyGroups, { teamUuid, signal });
  // Spec §3, §8: a user must be in exactly one group; anything else is logged, not shown.
  if (groups.length !== 1)
    console.error(`User is in ${groups.length} groups of team ${teamUuid}; expected exactly one`);
  return groups;
}

export const fetchMembers = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.listMembers, { teamUuid, signal }).then((answer) => answer.members);

export const fetchGroups = (teamUuid: string, signal?: AbortSignal) =>
  callRoute(routes.listGroups, { teamUuid, signal }).then((answer) => answer.groups);

/** Without `language` the invitation to a new address is in the team owner's language (issue 27 item 5). */
export type InviteBody = { email: string; sendInvitationIfNeeded: true; language?: 'en' | 'de' };
/** The result is checked by the caller: an unknown one shows 'Something went wrong.' (spec §8). */
export const postInvite = (teamUuid: string, body: InviteBody) =>
  callRoute(routes.inviteMember, { teamUuid, body });

export const deleteMember = (teamUuid: string, email: string) =>
  callRoute(routes.removeMember, { teamUuid, body: { email } });

export const postMemberGroup = (teamUuid: string, dbuserid: number, dbgroupid: number) =>
  callRoute(routes.setMemberGroup, { teamUuid, params: { dbuserid }, body: { groups: [dbgroupid] } });

export const postAccreditationNumber = (teamUuid: string, dbuserid: number, value: string | null) =>
  callRoute(routes.setMemberDetails, {
    teamUuid,
    params: { dbuserid },
    body: { accreditation_number: value },
  });

// ---- queries ----

export const myGroupsQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: teamKeys.myGroups(teamUuid),
    queryFn: ({ signal }) => fetchMyGroups(teamUuid, signal),
    staleTime: 60_000,
  });

export const useMyGroups = (teamUuid: string | undefined) =>
  useQuery({ ...myGroupsQueryOptions(teamUuid ?? ''), enabled: Boolean(teamUuid) });

/**
 * Spec §6, §8: the permission dialogs ignore MissingPermission when listing users or groups
 * (a folder admin who is not an owner or operator just gets empty lists).
 */
const ignoringMissingPermission = async <T>(load: () => Promise<T[]>): Promise<T[]> => {
  try {
    return await load();
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'MissingPermission') return [];
    throw error;
  }
};

export const membersQueryOptions = (teamUuid: string, options: { ignoreMissingPermission?: boolean } = {}) =>
  queryOptions({
    queryKey: [
      ...teamKeys.members(teamUuid),
      options.ignoreMissingPermission ? 'lenient' : 'strict',
    ] as const,
    queryFn: ({ signal }) =>
      options.ignoreMissingPermission
        ? ignoringMissingPermission(() => fetchMembers(teamUuid, signal))
        : fetchMembers(teamUuid, signal),
  });

export const useMembers = (
  teamUuid: string,
  options?: { ignoreMissingPermission?: boolean; enabled?: boolean },
) => useQuery({ ...membersQueryOptions(teamUuid, options), enabled: options?.enabled ?? true });

export const groupsQueryOptions = (teamUuid: string, options: { ignoreMissingPermission?: boolean } = {}) =>
  queryOptions({
    queryKey: [...teamKeys.groups(teamUuid), options.ignoreMissingPermission ? 'lenient' : 'strict'] as const,
    queryFn: ({ signal }) =>
      options.ignoreMissingPermission
        ? ignoringMissingPermission(() => fetchGroups(teamUuid, signal))
        : fetchGroups(teamUuid, signal),
    staleTime: 60_000,
  });

export const useGroups = (
  teamUuid: string,
  options?: { ignoreMissingPermission?: boolean; enabled?: boolean },
) => useQuery({ ...groupsQueryOptions(teamUuid, options), enabled: options?.enabled ?? true });

// ---- mutations ----

function useInvalidateMembers(teamUuid: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKeys.members(teamUuid) }),
      // A changed group changes the caller's own session when they edit themselves.
      queryClient.invalidateQueries({ queryKey: teamKeys.myGroups(teamUuid) }),
    ]);
}

export function useInviteMember(teamUuid: string, meta?: ErrorMeta) {
  const invalidate = useInvalidateMembers(teamUuid);
  return useMutation({
    mutationFn: (body: InviteBody) => postInvite(teamUuid, body),
    meta,
    onSettled: invalidate,
  });
}

export function useRemoveMember(teamUuid: string) {
  const invalidate = useInvalidateMembers(teamUuid);
  return useMutation({ mutationFn: (email: string) => deleteMember(teamUuid, email), onSettled: invalidate });
}

export type MemberChange = { dbuserid: number; group?: number; accreditationNumber?: string | null };

/** The edit dialog: the group and the accreditation number, each only when it changed. */
export function useUpdateMember(teamUuid: string) {
  const invalidate = useInvalidateMembers(teamUuid);
  return useMutation({
    mutationFn: async ({ dbuserid, group, accreditationNumber }: MemberChange) => {
      if (group !== undefined) await postMemberGroup(teamUuid, dbuserid, group);
      if (accreditationNumber !== undefined)
        await postAccreditationNumber(teamUuid, dbuserid, accreditationNumber);
    },
    onSettled: invalidate,
  });
}

/** Debug mode: completes a pending invitation as if the invitee had signed up. */
export function useForceAcceptInvite(teamUuid: string) {
  const invalidate = useInvalidateMembers(teamUuid);
  return useMutation({
    mutationFn: (body: AcceptInviteBody) => postAcceptInvite(body),
    onSettled: invalidate,
  });
}
