import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Booking, CalendarEntry } from '@photorelay/contract/calendar';
import ICAL from 'ical.js';
import nodemailer from 'nodemailer';
import { createEntry, defaultCalendarId } from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 27 item 5: an answer given in the photographer's calendar app (iMIP METHOD:REPLY mailed
// to the invitation's ORGANIZER address) changes the booking as Accept/Decline on the page does.
// Forged answers (another invitation's address, another event, another attendee) change nothing.

const domain = 'replies.photorelay.test';
let server: TestServer;
let smtpPort: number;
before(async () => {
  server = await startTestServer({
    INBOUND_SMTP_PORT: '0',
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_MAIL_DOMAIN: domain,
    INBOUND_MAIL_MAX_BYTES: '65536',
  });
  smtpPort = server.running.inboundSmtpPort ?? 0;
  assert.ok(smtpPort > 0, 'the listener runs');
});
after(() => server.stop());

const transport = () =>
  nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });

/** What a calendar app mails back: the invitation's event with the attendee's answer. */
function replyIcs(request: string, changes: { partstat: string; attendee?: string; uid?: string }) {
  const root = new ICAL.Component(ICAL.parse(request));
  root.updatePropertyWithValue('method', 'REPLY');
  const vevent = root.getFirstSubcomponent('vevent');
  assert.ok(vevent);
  if (changes.uid) vevent.updatePropertyWithValue('uid', changes.uid);
  const attendee = vevent.getFirstProperty('attendee');
  assert.ok(attendee);
  if (changes.attendee) attendee.setValue(`mailto:${changes.attendee}`);
  attendee.setParameter('partstat', changes.partstat);
  attendee.removeParameter('rsvp');
  return root.toString();
}

async function sendReply(to: string, from: string, ics: string) {
  return transport().sendMail({
    from,
    to,
    subject: 'Accepted: event',
    text: 'Accepted',
    icalEvent: { method: 'REPLY', content: ics },
  });
}

async function invite() {
  const team = await makeTeam(server, 'Replies');
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const id = await createEntry(owner, team.teamUuid, cal);
  const photographer = await makeMember(server, team, 'Photographer');
  const sent = await owner.post(`${base}/calendar/suggestentries`, {
    userIds: [photographer.userId],
    entryIds: [id],
  });
  assert.equal(sent.status, 200);
  const mail = await server.mail.waitFor(photographer.email);
  const request = mail.parts.find((p) => p.contentType === 'text/calendar')?.content ?? '';
  const vevent = new ICAL.Component(ICAL.parse(request)).getFirstSubcomponent('vevent');
  const organizer = String(vevent?.getFirstPropertyValue('organizer')).replace(/^mailto:/i, '');
  const booking = async () =>
    (await owner.get<{ entry: CalendarEntry }>(`${base}/calendarentry/${id}`)).body.entry.bookings.find(
      (b: Booking) => b.userId === photographer.userId,
    );
  return { id, photographer, request, organizer, booking };
}

test("the reply address is the invitation's own; an ACCEPTED reply accepts, a DECLINED one declines", async () => {
  const a = await invite();
  assert.match(a.organizer, new RegExp(`^reply\\+\\d+-[0-9a-f]{32}@${domain.replace(/\./g, '\\.')}$`));
  assert.equal((await a.booking())?.answer, 'open');

  await sendReply(a.organizer, a.photographer.email, replyIcs(a.request, { partstat: 'ACCEPTED' }));
  assert.deepEqual([(await a.booking())?.answer, (await a.booking())?.bookingState], ['accepted', 'unset']);

  await sendReply(a.organizer, a.photographer.email, replyIcs(a.request, { partstat: 'TENTATIVE' }));
  assert.equal((await a.booking())?.answer, 'accepted', 'tentative changes nothing');

  await sendReply(
    a.organizer.toUpperCase(),
    a.photographer.email,
    replyIcs(a.request, { partstat: 'DECLINED' }),
  );
  assert.deepEqual(
    [(await a.booking())?.answer, (await a.booking())?.bookingState],
    ['rejected', 'rejected'],
  );
});

test('forged replies change nothing: unknown or tampered address (refused at RCPT), other event, other attendee, too large', async () => {
  const a = await invite();
  const b = await invite();
  const accepted = (request: string, extra: { attendee?: string; uid?: string } = {}) =>
    replyIcs(request, { partstat: 'ACCEPTED', ...extra });

  const [local, host] = a.organizer.split('@');
  const tampered = `${local.slice(0, -1)}${local.endsWith('0') ? '1' : '0'}@${host}`;
  for (const to of [tampered, `someone@${domain}`, `${local}@other.test`]) {
    await assert.rejects(
      sendReply(to, a.photographer.email, accepted(a.request)),
      (error: Error & { responseCode?: number }) => {
        assert.equal(error.responseCode, 550, `${to}: ${error.message}`);
        return true;
      },
    );
  }
  // B's event answered to A's address, and A's event answered for B's photographer.
  await assert.rejects(sendReply(a.organizer, a.photographer.email, accepted(b.request)), /another event/);
  await assert.rejects(
    sendReply(a.organizer, b.photographer.email, accepted(a.request, { attendee: b.photographer.email })),
    /not from the invited photographer/,
  );
  // A request instead of a reply, and a message over INBOUND_MAIL_MAX_BYTES.
  await assert.rejects(sendReply(a.organizer, a.photographer.email, a.request), /No calendar reply/);
  await assert.rejects(
    transport().sendMail({
      from: a.photographer.email,
      to: a.organizer,
      subject: 'big',
      text: 'x'.repeat(100_000),
      icalEvent: { method: 'REPLY', content: accepted(a.request) },
    }),
    (error: Error & { responseCode?: number }) => error.responseCode === 552,
  );
  assert.equal((await a.booking())?.answer, 'open');
  assert.equal((await b.booking())?.answer, 'open');
});
