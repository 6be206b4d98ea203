import { z } from 'zod';
import { okResult } from './common.ts';
import { limits } from './limits.ts';
import { forAnyone, forUsers, userRoute } from './route.ts';

// Spec §5: 'Invalid e-mail.'; a standard address pattern.
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/**
 * The one spelling of an address used as a key (accounts, rate limits, invitations): trimmed,
 * lower-case, NFC. Spellings that differ only in case, spaces or Unicode composition are one account.
 */
export const normalizeEmail = (value: string) => value.trim().toLowerCase().normalize('NFC');
/** Any address field that names an account: normalised before its other checks. */
export const emailKey = z.string().max(limits.emailField).overwrite(normalizeEmail);
export const email = emailKey.regex(emailPattern);
export const password = z.string().min(limits.passwordMin).max(limits.passwordMax);
export const personName = z.string().trim().min(1).max(limits.nameField);

export const teamMembership = z.object({
  teamid: z.uuid(),
  name: z.string(),
  ready: z.boolean(),
  /** The team owner's name (issue 16 item 10: whom to ask for access). */
  owner: z.string().optional(),
});

export const groupInfo = z.object({
  dbgroupid: z.number(),
  name: z.string(),
  localizedName: z.string(),
  has_all_permissions: z.boolean(),
});

export const postLoginBody = z.object({
  email: emailKey,
  password: z.string().max(limits.passwordMax),
  rememberme: z.boolean().optional(),
});
export const postLoginResponse = z.object({ logged_in: z.boolean() });

export const getUserInfoResponse = z.object({
  logged_in: z.boolean(),
  id: z.number().optional(),
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  currentTeam: z.uuid().nullable().optional(),
  /** The language of the user's mails and calendar feed. */
  language: z.enum(['en', 'de']).optional(),
  member_of: z.array(teamMembership).optional(),
});
export type UserInfo = z.infer<typeof getUserInfoResponse>;

export const putUserInfoBody = z.object({ firstName: personName, lastName: personName });
/** Issue 27 item 5: the language of the user's mails and calendar feed (the app's EN/DE switch sets it). */
export const putUserLanguageBody = z.object({ language: z.enum(['en', 'de']) });
export const putCurrentTeamBody = z.object({ teamid: z.uuid() });

export const postRegisterBody = z.object({
  email,
  firstName: personName,
  lastName: personName,
  password,
  companyName: z.string().trim().max(limits.companyName).optional(),
  timezone: z.string().max(64).optional(),
  language: z.enum(['en', 'de']).optional(),
  invitationToken: z.string().max(200).optional(),
  invitationSelector: z.string().max(200).optional(),
});

export const postResetPasswordBody = z.object({
  email: emailKey,
  language: z.enum(['en', 'de']).optional(),
});
/** Issue 16 item 10: an unverified login may ask for the verification mail again. */
export const postResendVerificationBody = z.object({
  email: emailKey,
  language: z.enum(['en', 'de']).optional(),
});
export const putResetPasswordBody = z.object({
  token: z.string().min(1).max(200),
  selector: z.string().min(1).max(200),
  password,
});
export const postVerifyBody = z.object({
  token: z.string().min(1).max(200),
  selector: z.string().min(1).max(200),
});
/** The link mailed to an existing account invited to a team: `selector.token`. */
export const postAcceptInvitationBody = z.object({ token: z.string().min(1).max(200) });
export const acceptInviteBody = z.object({
  email,
  firstName: personName,
  lastName: personName,
  password,
  timezone: z.string().max(64).optional(),
});

/** Session view of the user inside the current team (spec §3 "User (session)"). */
export const getTeamSessionResponse = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  initials: z.string(),
  groups: z.array(groupInfo),
  isPhotographer: z.boolean(),
  isOperator: z.boolean(),
  isOwner: z.boolean(),
  team: teamMembership,
});
export type TeamSession = z.infer<typeof getTeamSessionResponse>;

// ---- routes (spec §7 "Account"; outside a team, under /api) ----

export const login = userRoute({
  method: 'POST',
  path: '/user/login',
  body: postLoginBody,
  response: postLoginResponse,
  errors: ['InvalidLogin', 'EmailNotVerified', 'TooManyRequests'],
  access: forAnyone,
});

/** Logged out already is fine: the answer is OK either way. */
export const logout = userRoute({
  method: 'POST',
  path: '/user/logout',
  response: okResult,
  access: forAnyone,
});

/** Answers `logged_in: false` without a session. */
export const getUserInfo = userRoute({
  method: 'GET',
  path: '/user/info',
  response: getUserInfoResponse,
  access: forAnyone,
});

export const putUserInfo = userRoute({
  method: 'PUT',
  path: '/user/info',
  body: putUserInfoBody,
  response: okResult,
  access: forUsers,
});

export const putUserLanguage = userRoute({
  method: 'PUT',
  path: '/user/language',
  body: putUserLanguageBody,
  response: okResult,
  access: forUsers,
});

export const putCurrentTeam = userRoute({
  method: 'PUT',
  path: '/user/currentteam',
  body: putCurrentTeamBody,
  response: okResult,
  errors: ['NotFound'],
  access: forUsers,
});

export const register = userRoute({
  method: 'POST',
  path: '/user/register',
  body: postRegisterBody,
  response: okResult,
  errors: ['UserAlreadyExists', 'InvalidToken', 'TooManyRequests', 'SendMailFailed'],
  access: forAnyone,
});

export const resendVerification = userRoute({
  method: 'POST',
  path: '/user/resendVerification',
  body: postResendVerificationBody,
  response: okResult,
  errors: ['TooManyRequests', 'SendMailFailed'],
  access: forAnyone,
});

export const verify = userRoute({
  method: 'POST',
  path: '/user/verify',
  body: postVerifyBody,
  response: okResult,
  errors: ['InvalidToken'],
  access: forAnyone,
});

export const requestPasswordReset = userRoute({
  method: 'POST',
  path: '/user/resetPassword',
  body: postResetPasswordBody,
  response: okResult,
  errors: ['TooManyRequests', 'SendMailFailed'],
  access: forAnyone,
});

/** A successful reset signs the user in. */
export const resetPassword = userRoute({
  method: 'PUT',
  path: '/user/resetPassword',
  body: putResetPasswordBody,
  response: postLoginResponse,
  errors: ['InvalidToken', 'TooManyRequests'],
  access: forAnyone,
});

/** An existing account accepts a mailed team invitation (`selector.token`). */
export const acceptInvitation = userRoute({
  method: 'POST',
  path: '/user/acceptInvitation',
  body: postAcceptInvitationBody,
  response: okResult,
  errors: ['InvalidToken', 'TooManyRequests'],
  access: forAnyone,
});

/**
 * Debug admin: a team admin completes a pending invitation. Answers NotFound unless the operator
 * enabled DEBUG_ADMIN (checked before the session), so the route stays hidden.
 */
export const forceAcceptInvite = userRoute({
  method: 'POST',
  path: '/admin/user/acceptInvite',
  body: acceptInviteBody,
  response: okResult,
  errors: ['NotFound'],
  access: forUsers,
});
