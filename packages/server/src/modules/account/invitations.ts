import { AppError } from '@photorelay/contract/errors';
import { asLanguage } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import { hashPassword } from '../../crypto/tokens.ts';
import type { Db } from '../../db/kysely.ts';
import * as teamQueries from '../teams/queries.ts';
import * as q from './queries.ts';
import { consumeToken, createSession, type RegisterInput, type SessionUser } from './service.ts';

// Team invitations (spec §7 "Team users"): membership starts only when the invitation's token
// comes back, never by signing up with, or verifying, an invited address.

/** Invitees join as photographers; the team's admins change the group afterwards. */
async function joinTeam(db: Db, teamId: number, userId: number) {
  const photographers = await teamQueries.findGroupByName(db, teamId, 'Photographer');
  await teamQueries.insertMember(db, teamId, userId, photographers.id);
  await q.setCurrentTeam(db, userId, teamId);
}

const splitInvitation = (invitation: string) => {
  const [selector, token] = invitation.split('.');
  if (!selector || !token) throw new AppError('InvalidToken');
  return { selector, token };
};

/**
 * Sign-up from an invitation link (`selector.token`): the mailed link proves the address, so no
 * verify mail. An unverified account at that address (a placeholder, or a sign-up whose mail was
 * never confirmed, maybe by someone else) becomes the invitee's: new password, its sessions and
 * verify links end. The new member is signed in at once (issue 27 item 3): the link already proved
 * the address, and the invitee came to join, not to type the password again.
 */
export async function registerInvited(ctx: AppContext, input: RegisterInput, invitation: string) {
  const { selector, token } = splitInvitation(invitation);
  const passwordHash = await hashPassword(input.password);
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, 'invite', selector, token);
    const existing = await q.findUserByEmail(trx, row.email);
    if (existing?.email_verified) throw new AppError('UserAlreadyExists');
    const profile = {
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      language: asLanguage(input.language),
      timezone: input.timezone ?? 'Europe/Berlin',
      verified: true,
    };
    const userId = existing ? existing.id : await q.insertUser(trx, { email: row.email, ...profile });
    if (existing) {
      await q.completeUser(trx, userId, profile);
      await q.deleteUserSessions(trx, userId);
      await q.revokeUserTokens(trx, userId, 'verify');
    }
    if (row.team_id !== null) await joinTeam(trx, row.team_id, userId);
    await q.markRegistrationCompleted(trx, userId);
    return userId;
  });
  return createSession(ctx.db, userId, false);
}

/** The link mailed to an existing (verified) account: joining is that account's own choice. */
export async function acceptTeamInvitation(db: Db, input: { token: string }) {
  const { selector, token } = splitInvitation(input.token);
  await db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, 'invite', selector, token);
    const user = await q.findUserByEmail(trx, row.email);
    // An unverified account signs up with the invitation instead (registerInvited).
    if (!user?.email_verified || row.team_id === null) throw new AppError('InvalidToken');
    await joinTeam(trx, row.team_id, user.id);
  });
}

/**
 * Debug force-accept (DEBUG_ADMIN=1): an Owner or Operator completes their own team's pending
 * invitation of an address that has no account of its own yet. Never another team's invitation,
 * never a verified account, never someone's unverified sign-up (it has a password).
 */
export async function forceAcceptInvite(
  db: Db,
  caller: SessionUser,
  input: { email: string; firstName: string; lastName: string; password: string; timezone?: string },
) {
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const user = await q.findUserByEmail(trx, input.email);
    if (!user || user.email_verified || user.password_hash !== '') throw new AppError('NotFound');
    const ours: Array<{ id: number; teamId: number }> = [];
    for (const invitation of await q.findPendingInvitations(trx, input.email)) {
      if (invitation.team_id === null) continue;
      const membership = await teamQueries.findMembershipById(trx, invitation.team_id, caller.id);
      if (membership?.hasAllPermissions) ours.push({ id: invitation.id, teamId: invitation.team_id });
    }
    if (ours.length === 0) throw new AppError('NotFound');
    await q.completeUser(trx, user.id, {
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      language: user.language,
      timezone: input.timezone ?? user.timezone,
      verified: true,
    });
    await q.markTokensUsed(
      trx,
      ours.map((o) => o.id),
    );
    for (const { teamId } of ours) await joinTeam(trx, teamId, user.id);
  });
}
