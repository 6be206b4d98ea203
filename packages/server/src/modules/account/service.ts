import { normalizeEmail } from '@photorelay/contract/account';
import { AppError } from '@photorelay/contract/errors';
import { limits } from '@photorelay/contract/limits';
import { accountMail, asLanguage, type Language } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import {
  hashPassword,
  passwordMatches,
  randomToken,
  sha256,
  spendVerifyTime,
  tokenMatches,
} from '../../crypto/tokens.ts';
import type { Db } from '../../db/kysely.ts';
import type { TokenKind } from '../../db/schema.ts';
import * as teams from '../teams/service.ts';
import { registerInvited } from './invitations.ts';
import * as q from './queries.ts';

const HOUR = 3600_000;
const tokenLifetime: Record<TokenKind, number> = {
  verify: limits.verifyTokenHours * HOUR,
  reset: limits.resetTokenHours * HOUR,
  invite: limits.invitationTokenDays * 24 * HOUR,
};
const persistentSession = limits.rememberMeDays * 24 * HOUR;
// A browser-session cookie still gets a server-side end; it slides while the user is active.
const browserSession = 12 * HOUR;

export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  language: Language;
  currentTeamId: number | null;
  sessionHash: string;
}

// ---- tokens (verify, reset, invite): selector finds the row, the token is stored hashed ----

export async function issueToken(
  db: Db,
  t: { kind: TokenKind; email: string; userId: number | null; teamId: number | null },
) {
  const selector = randomToken(12);
  const token = randomToken(32);
  await q.insertToken(db, {
    ...t,
    selector,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + tokenLifetime[t.kind]),
  });
  return { selector, token };
}

/** Uses a token once; wrong, reused and expired tokens all answer InvalidToken. */
export async function consumeToken(db: Db, kind: TokenKind, selector: string, token: string) {
  const row = await q.findUsableTokenForUpdate(db, kind, selector);
  if (!row || !tokenMatches(token, row.token_hash)) throw new AppError('InvalidToken');
  await q.markTokenUsed(db, row.id);
  return row;
}

// ---- sessions ----

export async function createSession(db: Db, userId: number, persistent: boolean) {
  const id = randomToken(32);
  const maxAgeMs = persistent ? persistentSession : browserSession;
  await q.insertSession(db, {
    idHash: sha256(id),
    userId,
    persistent,
    expiresAt: new Date(Date.now() + maxAgeMs),
  });
  return { id, persistent, maxAgeSeconds: persistent ? maxAgeMs / 1000 : undefined };
}

/**
 * The session's user, and with `teamUuid` (lower case) their membership in that team (null when
 * they are not a member), read together.
 */
export async function findSession(
  db: Db,
  sessionId: string,
  teamUuid?: string,
): Promise<{ user: SessionUser; member: teams.Member | null } | null> {
  const row = await q.findSessionUser(db, sha256(sessionId), teamUuid);
  if (!row) return null;
  const lifetime = row.persistent ? persistentSession : browserSession;
  if (row.expires_at.getTime() - Date.now() < lifetime / 2) {
    await q.extendSession(db, row.id_hash, new Date(Date.now() + lifetime));
  }
  return {
    user: {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      language: asLanguage(row.language),
      currentTeamId: row.current_team_id,
      sessionHash: row.id_hash,
    },
    member: teams.memberOrNull(row),
  };
}

export const logout = (db: Db, user: SessionUser) => q.deleteSession(db, user.sessionHash);

// ---- login ----

export async function login(db: Db, input: { email: string; password: string; rememberme?: boolean }) {
  const user = await q.findUserByEmail(db, normalizeEmail(input.email));
  // Same answer, and the same argon2 time (a dummy hash), for an unknown address and a wrong
  // password: no account enumeration.
  if (!(await passwordMatches(user?.password_hash, input.password)) || !user)
    throw new AppError('InvalidLogin');
  if (!user.email_verified) throw new AppError('EmailNotVerified');
  await q.markRegistrationCompleted(db, user.id);
  await ensureCurrentTeam(db, user.id, user.current_team_id);
  return createSession(db, user.id, input.rememberme === true);
}

/** The current team stays what the user chose while they are a member, else the first membership. */
async function ensureCurrentTeam(db: Db, userId: number, currentTeamId: number | null) {
  const memberships = await q.listMemberships(db, userId);
  if (memberships.some((m) => m.id === currentTeamId)) return;
  if (memberships[0]) await q.setCurrentTeam(db, userId, memberships[0].id);
}

// ---- user info ----

export async function userInfo(db: Db, user: SessionUser | null) {
  if (!user) return { logged_in: false };
  const memberships = await q.listMemberships(db, user.id);
  const current = memberships.find((m) => m.id === user.currentTeamId) ?? memberships[0];
  return {
    logged_in: true,
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    language: user.language,
    currentTeam: current?.uuid ?? null,
    member_of: memberships.map((m) => ({
      teamid: m.uuid,
      name: m.name,
      ready: m.ready,
      owner: m.owner_name ?? '',
    })),
  };
}

export const updateInfo = (db: Db, user: SessionUser, input: { firstName: string; lastName: string }) =>
  q.updateUserNames(db, user.id, input.firstName, input.lastName);

/** Mails and the calendar feed are written in this language from now on. */
export const setLanguage = (db: Db, user: SessionUser, language: Language) =>
  q.setUserLanguage(db, user.id, language);

export async function setCurrentTeam(db: Db, user: SessionUser, teamUuid: string) {
  const member = await teams.requireMember(db, teamUuid, user.id);
  await q.setCurrentTeam(db, user.id, member.teamId);
}

// ---- registration and verification ----

export interface RegisterInput {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  companyName?: string;
  timezone?: string;
  language?: Language;
  invitationToken?: string;
}

/** A sign-up; through an invitation it answers the new session (the invitee is signed in). */
export async function register(ctx: AppContext, input: RegisterInput) {
  if (input.invitationToken) return registerInvited(ctx, input, input.invitationToken);
  const companyName = input.companyName?.trim();
  if (!companyName) throw new AppError('ValidationError', 'companyName is required');
  const language = asLanguage(input.language);
  const passwordHash = await hashPassword(input.password);

  const created = await ctx.db.transaction().execute(async (trx) => {
    const existing = await q.findUserByEmail(trx, input.email);
    // An invited address signs up only with its invitation's token (registerInvited): a sign-up
    // without it must not complete the invited account, or whoever signs up first owns it.
    if (existing) throw new AppError('UserAlreadyExists');
    const profile = {
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      language,
      timezone: input.timezone ?? 'Europe/Berlin',
      verified: false,
    };
    const userId = await q.insertUser(trx, { email: input.email, ...profile });
    const team = await teams.createTeamOwnedBy(trx, companyName, userId);
    await q.setCurrentTeam(trx, userId, team.teamId);
    const token = await issueToken(trx, { kind: 'verify', email: input.email, userId, teamId: null });
    return { userId, teamId: team.teamId, token };
  });
  ctx.wake.provisioning();

  const link = `${ctx.config.publicUrl}/verify?token=${created.token.token}&selector=${created.token.selector}`;
  try {
    await ctx.mailer.send({ to: input.email, link, ...accountMail('verify', language, link) });
  } catch (error) {
    ctx.log.warn({ err: error, to: input.email }, 'verification mail failed');
    // Without the mail the account could never be verified: take the sign-up back.
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('teams').where('id', '=', created.teamId).execute();
      await q.deleteUser(trx, created.userId);
    });
    throw new AppError('SendMailFailed');
  }
  return null;
}

export async function verify(db: Db, input: { token: string; selector: string }) {
  await db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, 'verify', input.selector, input.token);
    if (row.user_id === null) throw new AppError('InvalidToken');
    await q.setEmailVerified(trx, row.user_id);
  });
}

// ---- password recovery ----

/**
 * Always succeeds from the caller's view, so nobody learns which addresses have accounts: both
 * sides spend one argon2 verify (about 50 ms, which drowns the token's insert in its own jitter),
 * and the mail goes out after the answer (its SMTP round trip would tell).
 */
/**
 * A known address costs a token write and a mail on top of the dummy verify both paths spend; the
 * answer waits until this floor so that its time tells nobody which addresses have an account.
 */
const resetAnswerFloorMs = 400;

export async function requestPasswordReset(ctx: AppContext, input: { email: string; language?: Language }) {
  const started = performance.now();
  try {
    await issuePasswordReset(ctx, input);
  } finally {
    const rest = resetAnswerFloorMs - (performance.now() - started);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
}

async function issuePasswordReset(ctx: AppContext, input: { email: string; language?: Language }) {
  const email = normalizeEmail(input.email);
  const user = await q.findUserByEmail(ctx.db, email);
  if (!user || user.password_hash === '') {
    await spendVerifyTime(email);
    return;
  }
  const { selector, token } = await issueToken(ctx.db, {
    kind: 'reset',
    email,
    userId: user.id,
    teamId: null,
  });
  await spendVerifyTime(email);
  const link = `${ctx.config.publicUrl}/resetPassword?token=${token}&selector=${selector}`;
  const language = mailLanguage(user, input.language);
  // The token is stored; a failed mail changes nothing the caller could act on (same answer).
  ctx.mailer
    .send({ to: email, link, ...accountMail('reset', language, link) })
    .catch((error: unknown) => ctx.log.warn({ err: error, to: email }, 'password reset mail failed'));
}

/**
 * The language of a mail to an account (issue 27 item 5): a verified account gets its own
 * language, never the one of the page that asked; an address not yet verified has told us nothing
 * but the page it uses, so that page's language wins (and its sign-up language otherwise).
 */
function mailLanguage(user: { email_verified: boolean; language: string }, pageLanguage?: Language) {
  if (user.email_verified) return asLanguage(user.language);
  return pageLanguage ?? asLanguage(user.language);
}

/**
 * Sends the verification mail again (issue 16 item 10). Unknown and verified addresses get the
 * same answer, so the call tells nobody which addresses have an account.
 */
export async function resendVerification(ctx: AppContext, input: { email: string; language?: Language }) {
  const email = normalizeEmail(input.email);
  const user = await q.findUserByEmail(ctx.db, email);
  if (!user || user.email_verified) return;
  const { selector, token } = await issueToken(ctx.db, {
    kind: 'verify',
    email,
    userId: user.id,
    teamId: null,
  });
  const link = `${ctx.config.publicUrl}/verify?token=${token}&selector=${selector}`;
  const language = mailLanguage(user, input.language);
  ctx.mailer
    .send({ to: email, link, ...accountMail('verify', language, link) })
    .catch((error: unknown) => ctx.log.warn({ err: error, to: email }, 'verification mail failed'));
}

/** Sets the new password, ends every other session of the user and logs in. */
export async function resetPassword(db: Db, input: { token: string; selector: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  const userId = await db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, 'reset', input.selector, input.token);
    if (row.user_id === null) throw new AppError('InvalidToken');
    await q.setPasswordHash(trx, row.user_id, passwordHash);
    await q.deleteUserSessions(trx, row.user_id);
    return row.user_id;
  });
  const user = await q.findUserById(db, userId);
  await ensureCurrentTeam(db, userId, user?.current_team_id ?? null);
  return createSession(db, userId, false);
}
