import { AppError } from '@photorelay/contract/errors';
import { asLanguage, teamMail } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import * as accountQueries from '../account/queries.ts';
import { issueToken } from '../account/service.ts';
import * as feedQueries from '../externalcalendars/feed-queries.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import * as folderQueries from '../folders/queries.ts';
import * as q from './queries.ts';
import { type Member, presentGroup } from './service.ts';

// User management of a team (spec §2 "User management page", §7 "Team users, groups").

export async function listMembers(db: Db, member: Member) {
  requireTeamAdmin(member);
  const [rows, pending, photographers] = await Promise.all([
    q.listTeamMembers(db, member.teamId),
    q.listPendingInvitees(db, member.teamId),
    q.findGroupByName(db, member.teamId, 'Photographer'),
  ]);
  const joined = rows.map((r) => ({
    dbuserid: r.id,
    email: r.email,
    firstname: r.first_name,
    lastname: r.last_name,
    fullname: `${r.first_name} ${r.last_name}`.trim(),
    groups: [
      presentGroup({ id: r.group_id, name: r.group_name, has_all_permissions: r.has_all_permissions }),
    ],
    accreditation_number: r.accreditation_number,
    email_verified: r.email_verified,
    isOwner: r.group_name === 'Owner',
  }));
  // An open invitation shows as 'Invitation pending' (spec §2): no name, since the account's
  // owner has not agreed to join, and the group the invitee will join in.
  const invited = pending.map((p) => ({
    dbuserid: p.id,
    email: p.email,
    firstname: '',
    lastname: '',
    fullname: '',
    groups: [presentGroup(photographers)],
    accreditation_number: null,
    email_verified: false,
    isOwner: false,
  }));
  return [...joined, ...invited];
}

export async function listGroups(db: Db, member: Member) {
  requireTeamAdmin(member);
  return (await q.listGroups(db, member.teamId)).map(presentGroup);
}

type InviteResult = 'ALREADY_OK' | 'INVITATION_PENDING';

// Invitations (sent or re-sent) a team may mail per hour: a team cannot be used to flood addresses.
const invitationsPerHour = 30;

/**
 * Invites an address to the team. Nobody joins without agreeing: an existing account gets a
 * mailed link to accept; an unknown address (or an account whose sign-up was never verified) gets
 * a pending placeholder account and a sign-up link. Both links expire after 14 days, and the
 * address joins the Photographer group only when its link comes back.
 */
export async function inviteUser(
  ctx: AppContext,
  member: Member,
  input: { email: string; sendInvitationIfNeeded?: boolean; language?: 'en' | 'de' },
): Promise<InviteResult> {
  requireTeamAdmin(member);
  return ctx.db.transaction().execute(async (trx) => {
    const user = await accountQueries.findUserByEmail(trx, input.email);
    // A member, or an address with an open invitation (withdraw it to send a new one).
    if (user && (await q.findMember(trx, member.teamId, user.id))) return 'ALREADY_OK';
    if (user && (await q.hasOpenInvitation(trx, member.teamId, user.id))) return 'ALREADY_OK';
    const known = user?.email_verified === true;
    if (!known && !input.sendInvitationIfNeeded)
      throw new AppError('NotFound', 'No account with this e-mail address');
    const since = new Date(Date.now() - 3600_000);
    if ((await q.countInvitationsSince(trx, member.teamId, since)) >= invitationsPerHour)
      throw new AppError('TooManyRequests', 'Too many invitations in the last hour');

    const userId =
      user?.id ??
      (await accountQueries.insertUser(trx, {
        email: input.email,
        passwordHash: '',
        firstName: '',
        lastName: '',
        language: input.language ?? asLanguage(await q.findTeamOwnerLanguage(trx, member.teamId)),
        timezone: 'Europe/Berlin',
        verified: false,
      }));
    const { selector, token } = await issueToken(trx, {
      kind: 'invite',
      email: input.email,
      userId,
      teamId: member.teamId,
    });
    const link = known
      ? `${ctx.config.publicUrl}/acceptInvitation?${new URLSearchParams({ token: `${selector}.${token}` })}`
      : `${ctx.config.publicUrl}/signup?${new URLSearchParams({
          token: `${selector}.${token}`,
          team: member.teamUuid,
          email: input.email,
        })}`;
    // The recipient's language (issue 27 item 5): an account's own; an address without one gets
    // the language the inviter chose (the API's `language`), else the team owner's.
    const language =
      user && (known || user.password_hash !== '')
        ? asLanguage(user.language)
        : (input.language ?? asLanguage(await q.findTeamOwnerLanguage(trx, member.teamId)));
    await sendOrFail(ctx, {
      to: input.email,
      link,
      ...teamMail(known ? 'joinTeam' : 'invite', language, link, member.teamName),
    });
    return 'INVITATION_PENDING';
  });
}

async function sendOrFail(ctx: AppContext, mail: Parameters<AppContext['mailer']['send']>[0]) {
  try {
    await ctx.mailer.send(mail);
  } catch (error) {
    ctx.log.warn({ err: error, to: mail.to }, 'team mail failed');
    throw new AppError('SendMailFailed');
  }
}

async function requireOtherMember(db: Db, member: Member, userId: number) {
  const target = await q.findMemberWithGroup(db, member.teamId, userId);
  if (!target) throw new AppError('NotFound');
  return target;
}

/** Removes a member, or withdraws an open invitation of that address. */
export async function removeUser(db: Db, member: Member, email: string) {
  requireTeamAdmin(member);
  const user = await accountQueries.findUserByEmail(db, email);
  if (!user) throw new AppError('NotFound');
  if (!(await q.findMember(db, member.teamId, user.id))) {
    const revoked = await q.revokeInvitations(db, member.teamId, user.id);
    if (Number(revoked.numUpdatedRows) === 0) throw new AppError('NotFound');
    return;
  }
  const target = await requireOtherMember(db, member, user.id);
  if (target.group_name === 'Owner')
    throw new AppError('ValidationError', 'The team owner cannot be removed');
  await db.transaction().execute(async (trx) => {
    await folderQueries.deleteUserPermissionsInTeam(trx, member.teamId, user.id);
    // The calendar feed's secret URL goes with the membership: rejoining must not revive it.
    await feedQueries.deleteFeedToken(trx, member.teamId, user.id);
    await q.deleteMember(trx, member.teamId, user.id);
  });
}

/** Every member is in exactly one group; the owner stays Owner and nobody else becomes one. */
export async function setUserGroup(db: Db, member: Member, userId: number, groupId: number) {
  requireTeamAdmin(member);
  const target = await requireOtherMember(db, member, userId);
  if (target.group_name === 'Owner')
    throw new AppError('ValidationError', "The owner's group cannot be changed");
  const group = await q.findGroup(db, member.teamId, groupId);
  if (!group) throw new AppError('NotFound');
  if (group.name === 'Owner')
    throw new AppError('ValidationError', 'The Owner group cannot be given to anyone');
  await q.setMemberGroup(db, member.teamId, userId, group.id);
}

export async function setAccreditationNumber(db: Db, member: Member, userId: number, value: string | null) {
  requireTeamAdmin(member);
  await requireOtherMember(db, member, userId);
  await q.setAccreditationNumber(db, member.teamId, userId, value ? value : null);
}
