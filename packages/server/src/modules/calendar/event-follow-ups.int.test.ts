import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ICAL from 'ical.js';
import { createEntry, defaultCalendarId } from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import type { ReceivedMail } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// After the invitation (METHOD:REQUEST), every mail about the event carries a calendar object a
// calendar app acts on: a changed time or place an updated REQUEST, a cancelled or deleted event and
// a cancelled booking METHOD:CANCEL with STATUS:CANCELLED. Same UID, a higher SEQUENCE each time,
// in the recipient's language, through a real SMTP server, read back with ical.js.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Person = { userId: number; email: string };

const event = {
  startdatetime: '2027-05-12T18:00:00+02:00',
  enddatetime: '2027-05-12T21:00:00+02:00',
  category: 'sport',
  scene: 'Pokalfinale',
  location: 'Olympiastadion',
  city: 'Berlin',
  country: 'Deutschland',
};

/** The mail's calendar object, its text/calendar part and invite.ics agreeing, as ical.js reads it. */
function calendarOf(mail: ReceivedMail, method: 'REQUEST' | 'CANCEL') {
  const alternative = mail.parts.find((p) => p.contentType === 'text/calendar');
  const attachment = mail.parts.find((p) => p.filename === 'invite.ics');
  assert.ok(alternative, `a text/calendar part in "${mail.subject}"`);
  assert.ok(attachment, `an invite.ics attachment in "${mail.subject}"`);
  assert.equal(alternative.method, method);
  assert.equal(attachment.content, alternative.content);
  const root = new ICAL.Component(ICAL.parse(alternative.content));
  for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  assert.equal(root.getFirstPropertyValue('method'), method);
  const vevent = root.getFirstSubcomponent('vevent');
  assert.ok(vevent);
  return { vevent, event: new ICAL.Event(vevent) };
}

async function invitedTeam(name: string) {
  const team = await makeTeam(server, name);
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const id = await createEntry(owner, team.teamUuid, cal, event);
  const german = await makeMember(server, team, 'Photographer');
  const english = await makeMember(server, team, 'Photographer');
  await server.running.ctx.db
    .updateTable('users')
    .set({ language: 'de' })
    .where('id', '=', german.userId)
    .execute();
  const sent = await owner.post<{ invitations: number }>(`${base}/calendar/suggestentries`, {
    userIds: [german.userId, english.userId],
    entryIds: [id],
  });
  assert.deepEqual([sent.status, sent.body.invitations], [200, 2]);
  const invitations = new Map<Person, ReceivedMail>();
  for (const person of [german, english]) invitations.set(person, await server.mail.waitFor(person.email));
  const uid = `entry-${id}@${new URL(server.url).hostname}`;
  return { owner, base, cal, id, german, english, invitations, uid };
}

/** The next mail to `person` after `previous` whose subject matches. */
const nextMail = (person: Person, subject: RegExp, seen: ReceivedMail[]) =>
  server.mail.waitFor(person.email, (m) => subject.test(m.subject) && !seen.includes(m));

type Invited = Awaited<ReturnType<typeof invitedTeam>>;

/** Checks the follow-up to `person` against their invitation: same UID and organizer, a higher SEQUENCE. */
function assertFollows(t: Invited, person: Person, mail: ReceivedMail, method: 'REQUEST' | 'CANCEL') {
  const invitation = t.invitations.get(person);
  assert.ok(invitation);
  const first = calendarOf(invitation, 'REQUEST');
  const next = calendarOf(mail, method);
  assert.equal(next.event.uid, t.uid);
  assert.ok(next.event.sequence > first.event.sequence, `${next.event.sequence} > ${first.event.sequence}`);
  assert.equal(
    String(next.vevent.getFirstPropertyValue('organizer')),
    String(first.vevent.getFirstPropertyValue('organizer')),
  );
  assert.equal(next.vevent.getFirstPropertyValue('status'), method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
  return next;
}

/** The German and the English photographer's follow-ups, each checked against their invitation. */
const bothFollow = (t: Invited, de: ReceivedMail, en: ReceivedMail, method: 'REQUEST' | 'CANCEL') =>
  (
    [
      [t.german, de],
      [t.english, en],
    ] as const
  ).map(([person, mail]) => ({ person, next: assertFollows(t, person, mail, method) }));

test("a changed time or place sends an updated REQUEST (same UID, higher SEQUENCE), in each one's language", async () => {
  const t = await invitedTeam('Umzug');
  const moved = await t.owner.put(`${t.base}/calendar/${t.cal}/entry/${t.id}`, {
    ...event,
    startdatetime: '2027-05-12T19:00:00+02:00',
    enddatetime: '2027-05-12T22:00:00+02:00',
    location: 'Alte Försterei',
  });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const de = await nextMail(t.german, /geändert/, [...t.invitations.values()]);
  assert.match(de.text, /hat diesen Termin geändert/);
  const en = await nextMail(t.english, /changed/, [...t.invitations.values()]);
  assert.match(en.text, /has changed this event/);
  for (const { person, next } of bothFollow(t, de, en, 'REQUEST')) {
    assert.equal(next.event.startDate.toJSDate().toISOString(), '2027-05-12T17:00:00.000Z');
    assert.equal(next.event.location, 'Alte Försterei, Berlin, Deutschland');
    const attendee = next.vevent.getFirstProperty('attendee');
    assert.equal(String(attendee?.getFirstValue()).toLowerCase(), `mailto:${person.email}`);
    assert.equal(attendee?.getParameter('rsvp'), 'TRUE');
  }

  // Saving it again unchanged tells nobody.
  const mailsBefore = server.mail.mails.length;
  const same = await t.owner.put(`${t.base}/calendar/${t.cal}/entry/${t.id}`, {
    ...event,
    startdatetime: '2027-05-12T19:00:00+02:00',
    enddatetime: '2027-05-12T22:00:00+02:00',
    location: 'Alte Försterei',
  });
  assert.equal(same.status, 200);
  // The mailer answers once the SMTP server has the mail: none came.
  assert.equal(
    server.mail.mails.slice(mailsBefore).filter((m) => m.to === t.german.email || m.to === t.english.email)
      .length,
    0,
  );
});

test('cancelling the event sends METHOD:CANCEL with STATUS:CANCELLED to everyone invited, en and de', async () => {
  const t = await invitedTeam('Absage');
  assert.equal((await t.owner.put(`${t.base}/calendarentry/${t.id}/cancel`)).status, 200);
  const de = await nextMail(t.german, /abgesagt/, []);
  const en = await nextMail(t.english, /cancelled/, []);
  for (const { next } of bothFollow(t, de, en, 'CANCEL')) {
    assert.equal(next.event.startDate.toJSDate().toISOString(), '2027-05-12T16:00:00.000Z');
    assert.equal(next.vevent.getFirstProperty('attendee')?.getParameter('rsvp'), undefined);
  }
});

test('deleting the event sends METHOD:CANCEL to everyone invited, en and de', async () => {
  const t = await invitedTeam('Loeschung');
  assert.equal((await t.owner.del(`${t.base}/calendar/entry/${t.id}`)).status, 200);
  const de = await nextMail(t.german, /abgesagt/, []);
  assert.match(de.text, /hat diesen Termin abgesagt/);
  const en = await nextMail(t.english, /cancelled/, []);
  bothFollow(t, de, en, 'CANCEL');
});

test("cancelling one person's booking sends that person METHOD:CANCEL, nobody else", async () => {
  const t = await invitedTeam('Ausladung');
  const cancel = (person: Person) =>
    t.owner.post(`${t.base}/booking`, { entryId: t.id, userId: person.userId, bookingState: 'canceled' });
  assert.equal((await cancel(t.german)).status, 200);
  const de = await nextMail(t.german, /Buchung storniert/, []);
  assert.match(de.text, /hat Ihre Buchung für diesen Termin storniert/);
  assertFollows(t, t.german, de, 'CANCEL');
  assert.equal(server.mail.mails.filter((m) => m.to === t.english.email).length, 1, 'only the invitation');

  // An accepted booking cancelled back to unset takes the event out too (English this time).
  const accept = await t.owner.post(`${t.base}/booking`, {
    entryId: t.id,
    userId: t.english.userId,
    bookingState: 'accepted',
  });
  assert.equal(accept.status, 200);
  const unset = await t.owner.post(`${t.base}/booking`, {
    entryId: t.id,
    userId: t.english.userId,
    bookingState: 'unset',
  });
  assert.equal(unset.status, 200);
  const en = await nextMail(t.english, /booking cancelled/, []);
  assert.match(en.text, /has cancelled your booking for this event/);
  assertFollows(t, t.english, en, 'CANCEL');
});
