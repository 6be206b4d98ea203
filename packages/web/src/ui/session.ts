// The logged-in user as the app sees it (spec §3 'User (session)'): profile, teams, the current
// team and the caller's groups in it.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  accountKeys,
  fetchUserInfo,
  putCurrentTeam,
  type TeamMembership,
  type UserInfo,
  useUserInfo,
} from '../api/account.ts';
import { allTeamsScope } from '../api/client.ts';
import { type Group, useMyGroups } from '../api/teams.ts';

export type { TeamMembership };

export type SessionUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  initials: string;
};

export type LoggedInSession = {
  status: 'loggedIn';
  user: SessionUser;
  teams: TeamMembership[];
  currentTeam: TeamMembership | null;
  groups: Group[] | undefined;
  isOwner: boolean;
  isOperator: boolean;
  isPhotographer: boolean;
};

export type Session =
  | { status: 'loading' }
  | { status: 'error'; error: Error; retry: () => void }
  | { status: 'loggedOut' }
  | LoggedInSession;

export const initialsOf = (firstName: string, lastName: string) =>
  `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase();

/** The user's remembered team while still a member, else the first membership (spec §4, §9). */
export function resolveCurrentTeam(info: UserInfo): TeamMembership | null {
  const teams = info.member_of ?? [];
  return teams.find((team) => team.teamid === info.currentTeam) ?? teams[0] ?? null;
}

export function toSessionUser(info: UserInfo): SessionUser {
  const firstName = info.firstName ?? '';
  const lastName = info.lastName ?? '';
  return {
    id: info.id ?? 0,
    email: info.email ?? '',
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`.trim(),
    initials: initialsOf(firstName, lastName),
  };
}

export function useSession(): Session {
  const info = useUserInfo();
  const data = info.data;
  const currentTeam = data?.logged_in ? resolveCurrentTeam(data) : null;
  const groupsTeam = currentTeam?.ready ? currentTeam.teamid : undefined;
  const groups = useMyGroups(groupsTeam);

  if (!data) {
    if (info.error) return { status: 'error', error: info.error, retry: () => void info.refetch() };
    return { status: 'loading' };
  }
  if (!data.logged_in) return { status: 'loggedOut' };
  const names = new Set(groups.data?.map((group) => group.name));
  return {
    status: 'loggedIn',
    user: toSessionUser(data),
    teams: data.member_of ?? [],
    currentTeam,
    groups: groups.data,
    isOwner: names.has('Owner'),
    isOperator: names.has('Operator'),
    isPhotographer: names.has('Photographer'),
  };
}

/** For screens behind the route guard, which guarantees a ready current team. */
export function useCurrentTeam(): TeamMembership {
  const session = useSession();
  if (session.status !== 'loggedIn' || !session.currentTeam) {
    throw new Error('This screen needs a current team');
  }
  return session.currentTeam;
}

/**
 * After a successful login (spec §4): reload user info and make the resolved team the
 * remembered current team. The caller then goes to /.
 */
export function useCompleteLogin() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    queryClient.removeQueries({ queryKey: allTeamsScope });
    const info = await queryClient.fetchQuery({
      queryKey: accountKeys.userInfo(),
      queryFn: ({ signal }) => fetchUserInfo(signal),
      staleTime: 0,
    });
    const team = info.logged_in ? resolveCurrentTeam(info) : null;
    if (team && team.teamid !== info.currentTeam) {
      await putCurrentTeam(team.teamid);
      queryClient.setQueryData<UserInfo>(accountKeys.userInfo(), { ...info, currentTeam: team.teamid });
    }
  }, [queryClient]);
}
