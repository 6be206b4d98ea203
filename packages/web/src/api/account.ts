// Account calls of spec §7 ('Account'): session, profile, registration, verification, password reset.
import { getUserInfoResponse, postLoginResponse, type UserInfo } from '@photorelay/contract/account';
import { okResult } from '@photorelay/contract/common';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allTeamsScope, apiGet, apiPost, apiPut } from './client.ts';
import type { ErrorMeta } from './query-client.ts';

export type { UserInfo };
export type TeamMembership = NonNullable<UserInfo['member_of']>[number];
export type Language = 'en' | 'de';

export const accountKeys = {
  all: ['account'] as const,
  userInfo: () => [...accountKeys.all, 'userInfo'] as const,
};

// ---- fetchers ----

export const fetchUserInfo = (signal?: AbortSignal) =>
  apiGet('user/info', { schema: getUserInfoResponse, signal });

export type LoginBody = { email: string; password: string; rememberme: boolean };
export const postLogin = (body: LoginBody) => apiPost('user/login', body, { schema: postLoginResponse });

export const postLogout = () => apiPost('user/logout', {});

export type ProfileBody = { firstName: string; lastName: string };
export const putUserInfo = (body: ProfileBody) => apiPut('user/info', body, { schema: okResult });

export const putCurrentTeam = (teamid: string) =>
  apiPut('user/currentteam', { teamid }, { schema: okResult });

export type RegisterBody = {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  companyName?: string;
  timezone: string;
  language: Language;
  invitationToken?: string;
};
export const postRegister = (body: RegisterBody) => apiPost('user/register', body, { schema: okResult });

export const postRequestPasswordReset = (body: { email: string; language: Language }) =>
  apiPost('user/resetPassword', body, { schema: okResult });

export type ResetPasswordBody = { token: string; selector: string; password: string };
export const putResetPassword = (body: ResetPasswordBody) =>
  apiPut('user/resetPassword', body, { schema: postLoginResponse });

export type VerifyBody = { token: string; selector: string };
export const postVerify = (body: VerifyBody) => apiPost('user/verify', body, { schema: okResult });

/** Accepts a team invitation mailed to an existing account (`selector.token`). */
export const postAcceptInvitation = (body: { token: string }) =>
  apiPost('user/acceptInvitation', body, { schema: okResult });

export type AcceptInviteBody = {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  timezone: string;
};
/** Only answers when the operator enabled the debug admin (settings/debug), for the inviting team's admins. */
export const postAcceptInvite = (body: AcceptInviteBody) => apiPost('admin/user/acceptInvite', body);

// ---- queries ----

export const userInfoQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.userInfo(),
    queryFn: ({ signal }) => fetchUserInfo(signal),
    staleTime: 60_000,
  });

export const useUserInfo = (options?: { refetchInterval?: number | false }) =>
  useQuery({ ...userInfoQueryOptions(), ...options });

// ---- mutations ----

export const useLogin = (meta?: ErrorMeta) => useMutation({ mutationFn: postLogin, meta });

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postLogout,
    onSuccess: () => {
      // Spec §4: logout clears user, team, teams, project, ftp server, folders and calendars.
      // The user info query is updated in place (not removed) so that every observer hears of it.
      queryClient.setQueryData(accountKeys.userInfo(), { logged_in: false } satisfies UserInfo);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== accountKeys.all[0] });
    },
  });
}

export function useUpdateProfile(meta?: ErrorMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putUserInfo,
    meta,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.userInfo() }),
  });
}

export function useSwitchTeam(meta?: ErrorMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putCurrentTeam,
    meta,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountKeys.userInfo() });
      await queryClient.invalidateQueries({ queryKey: allTeamsScope });
    },
  });
}

export const useRegister = (meta?: ErrorMeta) => useMutation({ mutationFn: postRegister, meta });

export const useRequestPasswordReset = (meta?: ErrorMeta) =>
  useMutation({ mutationFn: postRequestPasswordReset, meta });

export function useResetPassword(meta?: ErrorMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putResetPassword,
    meta,
    // A successful reset logs the user in.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.userInfo() }),
  });
}

export const useVerifyEmail = (meta?: ErrorMeta) => useMutation({ mutationFn: postVerify, meta });

export const useAcceptInvite = (meta?: ErrorMeta) => useMutation({ mutationFn: postAcceptInvite, meta });
