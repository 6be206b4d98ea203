import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ICAL from 'ical.js';
import { createEntry, defaultCalendarId } from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import type { ReceivedMail } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 27 item 5: an event invitation is written in the photographer's language (never the
// sender's), and carries an .ics (METHOD:REQUEST, the event in the team's zone) that a calendar
// library reads as the same event.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const setLanguage = (member: { userId: number }, language: 'en' | 'de') =>
  server.running.ctx.db.updateTable('users').set({ language }).where('id', '=', member.userId).execute();

/** The mail's calendar object: the text/calendar alternative and the invite.ics attachment agree. */
function icsOf(mail: ReceivedMail) {
  const alternative = mail.parts.find((p) => p.contentType === 'text/calendar');
  const attachment = mail.parts.find((p) => p.filename === 'invite.ics');
  assert.ok(alternative, `a text/calendar part in ${mail.raw.slice(0, 2000)}`);
  assert.ok(attachment, 'an invite.ics attachment');
  assert.equal(alternative.method, 'REQUEST');
  assert.equal(attachment.content, alternative.content);
  const root = new ICAL.Component(ICAL.parse(alternative.content));
  for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return root;
}

test("a German photographer's invitation is German with an .ics that imports as the same event; an English one's English", async () => {
  const team = await makeTeam(server, 'Agentur');
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  // The event's zone is the team's: New York, so that a wrong zone cannot pass for Berlin.
  assert.equal((await owner.put(`${base}/timezone`, { timeZone: 'America/New_York' })).status, 200);
  const cal = await defaultCalendarId(server, team.teamId);
  const id = await createEntry(owner, team.teamUuid, cal, {
    startdatetime: '2027-07-04T19:30:00-04:00',
    enddatetime: '2027-07-04T22:00:00-04:00',
    category: 'sport',
    scene: 'Independence Day',
    location: 'Yankee Stadium',
    city: 'New York',
    country: 'USA',
  });
  const german = await makeMember(server, team, 'Photographer');
  const english = await makeMember(server, team, 'Photographer');
  await setLanguage(german, 'de');

  // The owner's app is English and says so: the mails still follow each recipient.
  const sent = await owner.post<{ invitations: number }>(`${base}/calendar/suggestentries`, {
    userIds: [german.userId, english.userId],
    entryIds: [id],
    language: 'en',
  });
  assert.deepEqual([sent.status, sent.body.invitations], [200, 2]);

  const de = await server.mail.waitFor(german.email);
  assert.match(de.subject, /lädt Sie ein/);
  assert.match(de.text, /möchte Sie für diesen Termin buchen/);
  const en = await server.mail.waitFor(english.email);
  assert.match(en.subject, /invites you to/);
  assert.match(en.text, /would like to book you/);

  const host = new URL(server.url).hostname;
  for (const [mail, member] of [
    [de, german],
    [en, english],
  ] as const) {
    const root = icsOf(mail);
    assert.equal(root.getFirstPropertyValue('method'), 'REQUEST');
    assert.equal(root.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid'), 'America/New_York');
    const vevent = root.getFirstSubcomponent('vevent');
    assert.ok(vevent);
    const event = new ICAL.Event(vevent);
    assert.equal(event.uid, `entry-${id}@${host}`);
    assert.equal(event.startDate.zone?.tzid, 'America/New_York');
    assert.equal(event.startDate.toString(), '2027-07-04T19:30:00');
    assert.equal(event.startDate.toJSDate().toISOString(), '2027-07-04T23:30:00.000Z');
    assert.equal(event.endDate.toJSDate().toISOString(), '2027-07-05T02:00:00.000Z');
    assert.equal(event.summary, 'Independence Day');
    assert.equal(event.location, 'Yankee Stadium, New York, USA');
    const organizer = vevent.getFirstProperty('organizer');
    assert.match(String(organizer?.getFirstValue()), /^mailto:/i);
    assert.match(String(organizer?.getParameter('cn')), /^Agentur /);
    const attendees = vevent.getAllProperties('attendee');
    assert.equal(attendees.length, 1);
    assert.equal(String(attendees[0].getFirstValue()).toLowerCase(), `mailto:${member.email}`);
    assert.equal(attendees[0].getParameter('rsvp'), 'TRUE');
    assert.equal(attendees[0].getParameter('partstat'), 'NEEDS-ACTION');
  }

  // The event changes and is sent again: same UID, a higher SEQUENCE.
  const firstSequence = new ICAL.Event(icsOf(de).getFirstSubcomponent('vevent') ?? undefined).sequence;
  const moved = await owner.put(`${base}/calendar/${cal}/entry/${id}`, {
    startdatetime: '2027-07-04T20:00:00-04:00',
    enddatetime: '2027-07-04T22:30:00-04:00',
    category: 'sport',
    scene: 'Independence Day',
    location: 'Yankee Stadium',
    city: 'New York',
    country: 'USA',
  });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const resent = await owner.post(`${base}/calendar/suggestentries`, {
    userIds: [german.userId],
    entryIds: [id],
  });
  assert.equal(resent.status, 200, JSON.stringify(resent.body));
  const again = await server.mail.waitFor(german.email, (m) => m !== de);
  const second = new ICAL.Event(icsOf(again).getFirstSubcomponent('vevent') ?? undefined);
  assert.equal(second.uid, `entry-${id}@${host}`);
  assert.ok(second.sequence > firstSequence, `${second.sequence} > ${firstSequence}`);
  assert.equal(second.startDate.toString(), '2027-07-04T20:00:00');

  // A later mail (the event is cancelled) is German too.
  assert.equal((await owner.put(`${base}/calendarentry/${id}/cancel`)).status, 200);
  const cancelled = await server.mail.waitFor(german.email, (m) => /abgesagt/.test(m.subject));
  assert.match(cancelled.text, /hat diesen Termin abgesagt/);
});
