// Account calls of spec §7 ('Account'): session, profile, registration, verification, password reset.

import type { UserInfo } from '@photorelay/contract/account';
import * as routes from '@photorelay/contract/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { closeSnackbar } from 'notistack';
import { callRoute } from './call.ts';
import { allTeamsScope } from './client.ts';
import type { ErrorMeta } from './query-client.ts';

export type { UserInfo };
export type TeamMembership = NonNullable<UserInfo['member_of']>[number];
export type Language = 'en' | 'de';

export const accountKeys = {
  all: ['account'] as const,
  userInfo: () => [...accountKeys.all, 'userInfo'] as const,
};

// ---- fetchers ----

export const fetchUserInfo = (signal?: AbortSignal) => callRoute(routes.getUserInfo, { signal });

export type LoginBody = { email: string; password: string; rememberme: boolean };
export const postLogin = (body: LoginBody) => callRoute(routes.login, { body });

export const postLogout = () => callRoute(routes.logout, {});

export type ProfileBody = { firstName: string; lastName: string };
export const putUserInfo = (body: ProfileBody) => callRoute(routes.putUserInfo, { body });

/** The language of the user's mails and calendar feed (issue 27 item 5). */
export const putUserLanguage = (language: Language) =>
  callRoute(routes.putUserLanguage, { body: { language } });

export const putCurrentTeam = (teamid: string) => callRoute(routes.putCurrentTeam, { body: { teamid } });

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
export const postRegister = (body: RegisterBody) => callRoute(routes.register, { body });

export const postRequestPasswordReset = (body: { email: string; language: Language }) =>
  callRoute(routes.requestPasswordReset, { body });

export const postResendVerification = (body: { email: string; language: Language }) =>
  callRoute(routes.resendVerification, { body });
export const useResendVerification = (meta?: ErrorMeta) =>
  useMutation({ mutationFn: postResendVerification, meta });

export type ResetPasswordBody = { token: string; selector: string; password: string };
export const putResetPassword = (body: ResetPasswordBody) => callRoute(routes.resetPassword, { body });

export type VerifyBody = { token: string; selector: string };
export const postVerify = (body: VerifyBody) => callRoute(routes.verify, { body });

/** Accepts a team invitation mailed to an existing account (`selector.token`). */
export const postAcceptInvitation = (body: { token: string }) => callRoute(routes.acceptInvitation, { body });

export type AcceptInviteBody = {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  timezone: string;
};
/** Only answers when the operator enabled the debug admin (settings/debug), for the inviting team's admins. */
export const postAcceptInvite = (body: AcceptInviteBody) => callRoute(routes.forceAcceptInvite, { body });

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
      // A message of the session must not stay on the sign-in page (issue 16 bugs).
      closeSnackbar();
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

export function useStoreLanguage(meta?: ErrorMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putUserLanguage,
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
