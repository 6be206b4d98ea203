import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';

// The ORGANIZER address of an event invitation (issue 27 item 5): `reply+ID-MAC@INBOUND_MAIL_DOMAIN`,
// one per invitation. The MAC (HMAC-SHA256 over the invitation's id with SECRET_KEY, 128 bits in
// lower-case hex, because mail systems may change the case of a local part) makes the address
// unguessable without a column of its own; only its holder can answer for that invitation.

const macOf = (key: Buffer, invitationId: number) =>
  createHmac('sha256', key).update(`calendar-reply:${invitationId}`).digest('hex').slice(0, 32);

export function replyAddress(
  config: Pick<Config, 'INBOUND_MAIL_DOMAIN' | 'secretKey'>,
  invitationId: number,
) {
  if (!config.INBOUND_MAIL_DOMAIN) return null;
  return `reply+${invitationId}-${macOf(config.secretKey, invitationId)}@${config.INBOUND_MAIL_DOMAIN.toLowerCase()}`;
}

/** The invitation an address answers for, or null for any address we did not hand out. */
export function invitationOfReplyAddress(
  config: Pick<Config, 'INBOUND_MAIL_DOMAIN' | 'secretKey'>,
  address: string,
): number | null {
  if (!config.INBOUND_MAIL_DOMAIN) return null;
  const match = /^reply\+([1-9][0-9]{0,15})-([0-9a-f]{32})@(.+)$/.exec(address.trim().toLowerCase());
  if (!match || match[3] !== config.INBOUND_MAIL_DOMAIN.toLowerCase()) return null;
  const id = Number(match[1]);
  if (!Number.isSafeInteger(id)) return null;
  const expected = Buffer.from(macOf(config.secretKey, id));
  return timingSafeEqual(expected, Buffer.from(match[2])) ? id : null;
}
