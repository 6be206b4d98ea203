import { AppError } from '@photorelay/contract/errors';
import { limits } from '@photorelay/contract/limits';
import { asLanguage, calendarMail } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import { randomToken, sha256, tokenMatches } from '../../crypto/tokens.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import * as teamQueries from '../teams/queries.ts';
import { type Member, requireMember } from '../teams/service.ts';
import * as bq from './booking-queries.ts';
import { answerOwnBooking } from './bookings.ts';
import { presentEntries } from './entries.ts';
import * as q from './entry-queries.ts';
import { describeEntry, icsEvent, organizerAddress } from './event-mails.ts';
import { invitationIcs } from './invitation-ics.ts';

// Invitations (spec §5 "Invite photographers dialog", "Photographer invitation page"): a mailed
// link with a selector+token pair (only the token's hash is stored), valid for
// limits.calendarInvitationTokenDays. Re-inviting counts up `suggested` on the one booking.

const invitationLifetimeMs = limits.calendarInvitationTokenDays * 24 * 3600 * 1000;

export async function suggestEntries(
  ctx: AppContext,
  member: Member,
  body: { userIds: number[]; entryIds: number[]; language?: 'en' | 'de' },
) {
  requireTeamAdmin(member);
  const entryIds = [...new Set(body.entryIds)];
  const userIds = [...new Set(body.userIds)];
  const entries = await q.listEntriesByIds(ctx.db, member.teamId, entryIds);
  if (entries.length !== entryIds.length) throw new AppError('NotFound', 'Unknown event');
  for (const e of entries) {
    if (e.calendarType !== 'default')
      throw new AppError('Conflict', 'Entries of external calendars have no bookings');
    if (e.cancelledAt) throw new AppError('Conflict', 'The event is cancelled');
  }
  const members = await teamQueries.listTeamMembers(ctx.db, member.teamId);
  const users = userIds.map((id) => members.find((m) => m.id === id));
  if (users.some((u) => u === undefined)) throw new AppError('NotFound', 'Unknown user');
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);

  let sent = 0;
  // One transaction: a mail that cannot be sent leaves no invitation behind.
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await q.lockEntries(
      trx,
      member.teamId,
      entries.map((e) => e.id),
    );
    if (locked.length !== entries.length) throw new AppError('NotFound', 'Unknown event');
    for (const entry of entries) {
      for (const user of users) {
        if (!user) continue;
        const current = await bq.ensureBooking(trx, member.teamId, entry.id, user.id);
        const changes: bq.HistoryChange[] = [
          { field: 'suggested', from: String(current.suggested), to: String(current.suggested + 1) },
        ];
        // A new invitation after a cancel or a decline opens the booking again.
        const reopen = current.state === 'canceled' || current.state === 'rejected';
        if (reopen) changes.push({ field: 'bookingState', from: current.state, to: 'unset' });
        if (reopen && current.answer !== 'open')
          changes.push({ field: 'answer', from: current.answer, to: 'open' });
        await bq.updateBooking(trx, current.id, {
          suggested: current.suggested + 1,
          ...(reopen ? { state: 'unset' as const, answer: 'open' as const } : {}),
        });
        await bq.insertHistory(trx, current.id, member.userId, changes);

        const selector = randomToken(12);
        const token = randomToken(32);
        const invitationId = await bq.insertInvitation(
          trx,
          current.id,
          selector,
          sha256(token),
          new Date(Date.now() + invitationLifetimeMs),
        );
        const query = new URLSearchParams({
          userid: String(user.id),
          ciid: String(entry.id),
          token,
          selector,
        });
        const link = `${ctx.config.publicUrl}/acceptPhotographerInivitation?${query}`;
        // Always the recipient's language (issue 27 item 5); `body.language`, the sender's, is ignored.
        const language = asLanguage(await bq.findUserLanguage(trx, user.id));
        const sequence = await q.findEntryVersion(trx, member.teamId, entry.id);
        const ics = invitationIcs(icsEvent(ctx, entry, zone, sequence, link), {
          organizer: { name: member.teamName, address: organizerAddress(ctx, invitationId) },
          attendee: { name: `${user.first_name} ${user.last_name}`.trim(), address: user.email },
        });
        try {
          await ctx.mailer.send({
            to: user.email,
            link,
            ...calendarMail('invitation', language, link, member.teamName, describeEntry(entry, zone)),
            calendar: { method: 'REQUEST', ics },
          });
        } catch (error) {
          ctx.log.warn({ err: error, to: user.email }, 'invitation mail failed');
          throw new AppError('SendMailFailed');
        }
        sent++;
      }
    }
  });
  return sent;
}

/** The invitation behind a link, for the signed-in user it was sent to. */
async function openInvitation(
  ctx: AppContext,
  userId: number,
  ciid: number,
  selector: string,
  token: string,
) {
  const invitation = await bq.findInvitation(ctx.db, selector);
  if (!invitation || invitation.entry_id !== ciid || !tokenMatches(token, invitation.token_hash))
    throw new AppError('InvalidToken', 'invalid parameters');
  if (invitation.user_id !== userId) throw new AppError('MissingPermission', 'invalid user id');
  const member = await requireMember(ctx.db, invitation.team_uuid, userId);
  return { invitation, member };
}

export async function getInvitation(
  ctx: AppContext,
  userId: number,
  ciid: number,
  query: { selector: string; token: string },
) {
  const { invitation, member } = await openInvitation(ctx, userId, ciid, query.selector, query.token);
  const entry = await q.findEntry(ctx.db, member.teamId, ciid);
  if (!entry) throw new AppError('NotFound');
  const zone = await q.findTeamTimeZone(ctx.db, member.teamId);
  const [presented] = await presentEntries(ctx.db, { ...member, hasAllPermissions: false }, [entry], zone);
  return { teamName: invitation.team_name, teamUuid: invitation.team_uuid, userId, entry: presented };
}

export async function confirmInvitation(
  ctx: AppContext,
  userId: number,
  ciid: number,
  body: { selector: string; token: string; answer?: 'accepted' | 'rejected' },
) {
  const { invitation, member } = await openInvitation(ctx, userId, ciid, body.selector, body.token);
  const booking = await answerOwnBooking(ctx.db, member, ciid, body.answer ?? 'accepted');
  if (!invitation.used_at) await bq.markInvitationUsed(ctx.db, invitation.id);
  return booking.answer;
}
