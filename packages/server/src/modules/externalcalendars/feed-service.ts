import { AppError } from '@photorelay/contract/errors';
import { asLanguage } from '../../adapters/mail/templates.ts';
import type { AppContext } from '../../context.ts';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';
import { randomToken, sha256, tokenMatches } from '../../crypto/tokens.ts';
import { bookingLine } from '../calendar/booking-words.ts';
import * as teamQueries from '../teams/queries.ts';
import type { Member } from '../teams/service.ts';
import { type FeedEvent, writeFeed } from './feed-ics.ts';
import * as q from './feed-queries.ts';

// The per-member iCalendar feed: a secret, revocable URL a phone's calendar subscribes to.

const day = 86_400_000;
export const feedWindow = { pastDays: 90, futureDays: 730, maxEvents: 5000 };

function feedUrls(ctx: AppContext, selector: string, token: string) {
  const url = `${ctx.config.publicUrl}/api/calendarfeed/${selector}/${token}.ics`;
  return { url, webcalUrl: url.replace(/^https?:\/\//, 'webcal://') };
}

export async function getFeedUrl(ctx: AppContext, member: Member) {
  const row = await q.findFeedToken(ctx.db, member.teamId, member.userId);
  if (!row) return { url: null, webcalUrl: null };
  return feedUrls(ctx, row.selector, decryptSecret(ctx.config.secretKey, row.sealed));
}

/** A new secret URL; the previous one stops working at once. */
export async function renewFeedUrl(ctx: AppContext, member: Member) {
  const selector = randomToken(9);
  const token = randomToken(24);
  await q.replaceFeedToken(ctx.db, {
    teamId: member.teamId,
    userId: member.userId,
    selector,
    tokenHash: sha256(token),
    sealed: encryptSecret(ctx.config.secretKey, token),
  });
  return feedUrls(ctx, selector, token);
}

export async function revokeFeedUrl(ctx: AppContext, member: Member) {
  await q.deleteFeedToken(ctx.db, member.teamId, member.userId);
  return { url: null, webcalUrl: null };
}

const bookingStatus = (state: string | null): FeedEvent['status'] =>
  state === 'accepted'
    ? 'CONFIRMED'
    : state === 'canceled' || state === 'rejected'
      ? 'CANCELLED'
      : 'TENTATIVE';

/**
 * The feed's text. A photographer gets the events they are booked on, each with the booking's
 * state (accepted = confirmed, invited = tentative, cancelled or rejected = cancelled); owners
 * and operators also every event of the team's default calendar. Unknown or revoked: 404, and
 * a member who left the team gets nothing either.
 */
export async function renderFeed(ctx: AppContext, selector: string, token: string, now = new Date()) {
  const feed = await q.findFeedBySelector(ctx.db, selector);
  if (!feed || !tokenMatches(token, feed.tokenHash)) throw new AppError('NotFound');
  const member = await teamQueries.findMembershipById(ctx.db, feed.teamId, feed.userId);
  if (!member) throw new AppError('NotFound');
  const entries = await q.listFeedEntries(ctx.db, {
    teamId: feed.teamId,
    userId: feed.userId,
    from: new Date(now.getTime() - feedWindow.pastDays * day),
    to: new Date(now.getTime() + feedWindow.futureDays * day),
    all: member.hasAllPermissions,
    limit: feedWindow.maxEvents,
  });
  const host = new URL(ctx.config.publicUrl).hostname;
  const language = asLanguage(feed.language);
  const events: FeedEvent[] = entries.map((e) => {
    const booked = e.bookingState !== null;
    const place = [e.location, e.city, e.country].filter(Boolean).join(', ');
    // The words we add are in the member's language (issue 27 item 5); the event's own texts stay.
    const stateLine = e.bookingState ? bookingLine(language, e.bookingState, e.accreditation) : '';
    return {
      uid: `entry-${e.id}@${host}`,
      start: e.start,
      end: e.end,
      allDay: e.allDay,
      summary: e.summary,
      description: [stateLine, e.description].filter(Boolean).join('\n\n'),
      location: place,
      status: e.cancelled ? 'CANCELLED' : booked ? bookingStatus(e.bookingState) : 'CONFIRMED',
      updatedAt: e.updatedAt,
      categories: e.category || undefined,
    };
  });
  return writeFeed({ name: feed.teamName, zone: feed.zone, events, now });
}
