import { senderAddress } from '../../adapters/mail/mailer.ts';
import { asLanguage, calendarMail } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import type { BookingRecord } from './booking-queries.ts';
import type { Entry } from './entry-queries.ts';
import { type InvitationEvent, invitationIcs } from './invitation-ics.ts';
import { replyAddress } from './reply-address.ts';
import { inZone } from './time.ts';

// The calendar object every mail about an event carries (iMIP, RFC 6047). The invitation sends
// METHOD:REQUEST; a changed event sends REQUEST again, a cancelled or deleted event and a cancelled
// booking send METHOD:CANCEL. All with the event's one UID and its version as SEQUENCE (it rises
// with every change), so Outlook, Apple and Google calendars update or remove the entry they have.

/** An event's UID, the same in the invitation's .ics and the member's feed: the app keeps one event. */
export const entryUid = (ctx: AppContext, entryId: number) =>
  `entry-${entryId}@${new URL(ctx.config.publicUrl).hostname}`;

/** The event in a mail's subject and text: summary with its local date, time and place. */
export function describeEntry(
  entry: { summary: string; scene: string; startAt: Date; location: string },
  zone: string,
) {
  const start = inZone(entry.startAt, zone);
  const where = entry.location ? `, ${entry.location}` : '';
  return `${entry.summary || entry.scene} (${start.date} ${start.time}${where})`;
}

/** The entry as the .ics describes it; `link` ends its description. */
export function icsEvent(
  ctx: AppContext,
  entry: Entry,
  zone: string,
  sequence: number,
  link: string,
): InvitationEvent {
  return {
    uid: entryUid(ctx, entry.id),
    sequence,
    start: entry.startAt,
    end: entry.endAt,
    allDay: entry.allDay,
    summary: entry.summary || entry.scene,
    description: [entry.description, `PhotoRelay: ${link}`].filter(Boolean).join('\n\n'),
    location: [entry.location, entry.city, entry.country].filter(Boolean).join(', '),
    zone,
  };
}

/** The ORGANIZER of an event's mails: the invitation's reply address, so later mails come from the same organizer. */
export const organizerAddress = (ctx: AppContext, invitationId: number | undefined) =>
  (invitationId === undefined ? null : replyAddress(ctx.config, invitationId)) ??
  senderAddress(ctx.config.MAIL_FROM);

/** Whom a follow-up mail goes to: the booking, and its newest invitation (for the organizer address). */
export type FollowUpRecipient = Pick<BookingRecord, 'email' | 'language' | 'fullname'> & {
  invitationId?: number;
};

/**
 * Tells each recipient that the event changed (an updated REQUEST), was cancelled or deleted, or
 * that their booking was cancelled (both CANCEL). The write stands when a mail cannot be sent:
 * the calendar shows the change to everyone anyway, so a failure is logged, not answered.
 */
export async function sendFollowUps(
  ctx: AppContext,
  team: string,
  kind: 'changed' | 'cancelled' | 'uninvited',
  event: { entry: Entry; zone: string; sequence: number },
  recipients: readonly FollowUpRecipient[],
) {
  const link = `${ctx.config.publicUrl}/calendar`;
  const method = kind === 'changed' ? 'REQUEST' : 'CANCEL';
  const described = describeEntry(event.entry, event.zone);
  const vevent = icsEvent(ctx, event.entry, event.zone, event.sequence, link);
  for (const recipient of recipients) {
    const ics = invitationIcs(
      vevent,
      {
        organizer: { name: team, address: organizerAddress(ctx, recipient.invitationId) },
        attendee: { name: recipient.fullname, address: recipient.email },
      },
      method,
    );
    try {
      await ctx.mailer.send({
        to: recipient.email,
        link,
        ...calendarMail(kind, asLanguage(recipient.language), link, team, described),
        calendar: { method, ics },
      });
    } catch (error) {
      ctx.log.warn({ err: error, to: recipient.email, kind }, 'calendar follow-up mail failed');
    }
  }
}
