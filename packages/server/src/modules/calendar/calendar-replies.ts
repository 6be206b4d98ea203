import { AppError } from '@photorelay/contract/errors';
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import { InboundRefusal } from '../../adapters/mail/inbound-smtp.ts';
import type { AppContext } from '../../context.ts';
import { requireMember } from '../teams/service.ts';
import * as bq from './booking-queries.ts';
import { answerOwnBooking } from './bookings.ts';
import { entryUid } from './event-mails.ts';
import { invitationOfReplyAddress } from './reply-address.ts';

// A calendar app's answer to an event invitation (iMIP METHOD:REPLY, RFC 6047), mailed to the
// invitation's reply address (issue 27 item 5). It counts as the photographer's Accept or Decline
// on the invitation page only when all of it belongs to that one invitation: the address's MAC,
// the event's UID and the invited photographer as the answering ATTENDEE. Anything else changes
// nothing and is refused.

export const acceptsReplyAddress = (ctx: AppContext, address: string) =>
  invitationOfReplyAddress(ctx.config, address) !== null;

const answers = { ACCEPTED: 'accepted', DECLINED: 'rejected' } as const;

/** The calendar object of a mail: a text/calendar part (or an .ics attachment). */
async function calendarText(raw: Buffer) {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const part = mail.attachments.find(
    (a) =>
      a.contentType === 'text/calendar' ||
      a.contentType === 'application/ics' ||
      /\.ics$/i.test(a.filename ?? ''),
  );
  return part?.content.toString('utf8');
}

function readReply(text: string) {
  try {
    const root = new ICAL.Component(ICAL.parse(text));
    const vevent = root.getFirstSubcomponent('vevent');
    if (!vevent) return null;
    return {
      method: String(root.getFirstPropertyValue('method') ?? '').toUpperCase(),
      uid: String(vevent.getFirstPropertyValue('uid') ?? ''),
      attendees: vevent.getAllProperties('attendee').map((p) => ({
        address: String(p.getFirstValue() ?? '')
          .replace(/^mailto:/i, '')
          .trim()
          .toLowerCase(),
        partstat: String(p.getParameter('partstat') ?? '').toUpperCase(),
      })),
    };
  } catch {
    return null;
  }
}

/** Takes one inbound message for `recipient` (already accepted at RCPT TO). */
export async function receiveCalendarReply(ctx: AppContext, recipient: string, raw: Buffer) {
  const invitationId = invitationOfReplyAddress(ctx.config, recipient);
  if (invitationId === null) throw new InboundRefusal(550, 'No such recipient');
  const invitation = await bq.findInvitationById(ctx.db, invitationId);
  if (!invitation) throw new InboundRefusal(550, 'This invitation has expired');
  const text = await calendarText(raw);
  const reply = text ? readReply(text) : null;
  if (reply?.method !== 'REPLY') throw new InboundRefusal(550, 'No calendar reply in this message');
  if (reply.uid !== entryUid(ctx, invitation.entry_id))
    throw new InboundRefusal(550, 'The reply is for another event');
  const attendee = reply.attendees.find((a) => a.address === invitation.email.toLowerCase());
  if (!attendee || reply.attendees.length !== 1)
    throw new InboundRefusal(550, 'The reply is not from the invited photographer');
  const answer = answers[attendee.partstat as keyof typeof answers];
  // TENTATIVE (and anything else) leaves the invitation open: the web app knows no "maybe".
  if (!answer) {
    ctx.log.info({ invitationId, partstat: attendee.partstat }, 'calendar reply without accept or decline');
    return;
  }
  const member = await requireMember(ctx.db, invitation.team_uuid, invitation.user_id);
  try {
    await answerOwnBooking(ctx.db, member, invitation.entry_id, answer);
  } catch (error) {
    // The agency cancelled, or already booked and the app declines: the same refusal as on the page.
    if (error instanceof AppError) throw new InboundRefusal(550, error.message);
    throw error;
  }
  if (!invitation.used_at) await bq.markInvitationUsed(ctx.db, invitation.id);
  ctx.log.info({ invitationId, answer }, 'calendar reply applied');
}
