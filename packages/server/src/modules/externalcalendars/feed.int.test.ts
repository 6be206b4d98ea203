import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ICAL from 'ical.js';
import { createEntry, defaultCalendarId, matchDay } from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import * as teamQueries from '../teams/queries.ts';
import { foldLine } from './feed-ics.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type FeedUrl = { url: string | null; webcalUrl: string | null };

/** RFC 5545 §3.1: CRLF only, lines of at most 75 octets, continuation lines start with a space. */
function assertRfc5545(text: string) {
  assert.ok(text.endsWith('\r\n'));
  assert.ok(!/[^\r]\n/.test(text), 'bare LF');
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) assert.ok(Buffer.byteLength(line) <= 75, `too long: ${line}`);
  const unfolded = text.replace(/\r\n /g, '').slice(0, -2).split('\r\n');
  for (const line of unfolded) assert.match(line, /^[A-Z-]+[;:]/, line);
  for (const line of unfolded.filter((l) => /^(DTSTART|DTEND|DTSTAMP|LAST-MODIFIED)/.test(l))) {
    assert.match(line, /^[A-Z-]+(:\d{8}T\d{6}Z|;VALUE=DATE:\d{8})$/, line);
  }
  return unfolded;
}

async function fetchFeed(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

test('folding never splits a UTF-8 character and keeps every line at 75 octets', () => {
  const line = `DESCRIPTION:${'Müller – Straße 🏟 '.repeat(12)}`;
  const folded = foldLine(line);
  for (const part of folded.split('\r\n')) assert.ok(Buffer.byteLength(part) <= 75);
  assert.equal(folded.replace(/\r\n /g, ''), line);
  assert.ok(!folded.includes('\uFFFD'));
});

test("a photographer's feed lists their bookings with state; owners also get the default calendar; URLs are revocable", async () => {
  const team = await makeTeam(server);
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const calendarId = await defaultCalendarId(server, team.teamId);
  const tricky = 'Hertha, Union; Derby \\ "Stadt"\nZweite Zeile';
  const longText = 'Akkreditierung über das Pressebüro – bitte frühzeitig anmelden. '.repeat(4);
  const booked = await createEntry(owner, team.teamUuid, calendarId, {
    ...matchDay,
    startdatetime: '2027-02-14T15:30:00+01:00',
    description: `${tricky}\n${longText}`,
  });
  const invited = await createEntry(owner, team.teamUuid, calendarId, {
    ...matchDay,
    startdatetime: '2027-02-21T15:30:00+01:00',
  });
  const unbooked = await createEntry(owner, team.teamUuid, calendarId, {
    ...matchDay,
    startdatetime: '2027-02-28T15:30:00+01:00',
  });
  const photographer = await makeMember(server, team, 'Photographer');
  // One accepted booking, one invitation still open.
  const accepted = await owner.post(`${base}/booking`, {
    entryId: booked,
    userId: photographer.userId,
    bookingState: 'accepted',
  });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const invitation = await owner.post(`${base}/calendar/suggestentries`, {
    userIds: [photographer.userId],
    entryIds: [invited],
  });
  assert.equal(invitation.status, 200, JSON.stringify(invitation.body));

  const none = await photographer.client.get<FeedUrl>(`${base}/calendarfeed`);
  assert.deepEqual(none.body, { url: null, webcalUrl: null });
  const made = await photographer.client.post<FeedUrl>(`${base}/calendarfeed`);
  assert.equal(made.status, 200);
  assert.ok(made.body.url?.startsWith(`${server.url}/api/calendarfeed/`));
  assert.ok(made.body.webcalUrl?.startsWith('webcal://'));
  assert.deepEqual((await photographer.client.get<FeedUrl>(`${base}/calendarfeed`)).body, made.body);

  const feed = await fetchFeed(made.body.url ?? '');
  assert.equal(feed.status, 200);
  assert.match(feed.type ?? '', /^text\/calendar/);
  assertRfc5545(feed.text);
  const root = new ICAL.Component(ICAL.parse(feed.text));
  const events = root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  assert.equal(events.length, 2);
  const first = events[0];
  assert.equal(first.summary, 'FC Bayern München - Borussia Dortmund');
  assert.ok(first.description.includes(`${tricky}\n${longText.trim()}`), 'escaping and folding round-trip');
  assert.equal(first.startDate.toJSDate().toISOString(), '2027-02-14T14:30:00.000Z');
  assert.equal(first.startDate.zone?.tzid, 'UTC');
  assert.match(first.description, /^Booking: accepted/);
  assert.equal(first.location, 'Allianz Arena, München, Deutschland');
  assert.deepEqual(
    events.map((e) => e.component.getFirstPropertyValue('status')),
    ['CONFIRMED', 'TENTATIVE'],
  );
  assert.match(String(root.getFirstPropertyValue('x-wr-calname')), /^Team /);

  // Owners and operators get the whole default calendar.
  const ownerUrl = (await owner.post<FeedUrl>(`${base}/calendarfeed`)).body.url ?? '';
  const ownerFeed = await fetchFeed(ownerUrl);
  const ownerEvents = new ICAL.Component(ICAL.parse(ownerFeed.text)).getAllSubcomponents('vevent');
  assert.equal(ownerEvents.length, 3);
  assert.ok(ownerEvents.some((v) => v.getFirstPropertyValue('uid') === `entry-${unbooked}@127.0.0.1`));

  // Renewing replaces the URL; revoking ends it; a wrong token is 404.
  const renewed = await photographer.client.post<FeedUrl>(`${base}/calendarfeed`);
  assert.notEqual(renewed.body.url, made.body.url);
  assert.equal((await fetchFeed(made.body.url ?? '')).status, 404);
  assert.equal((await fetchFeed(renewed.body.url ?? '')).status, 200);
  assert.equal((await fetchFeed(`${(renewed.body.url ?? '').slice(0, -8)}AAAA.ics`)).status, 404);
  const revoked = await photographer.client.del<FeedUrl>(`${base}/calendarfeed`);
  assert.deepEqual(revoked.body, { url: null, webcalUrl: null });
  assert.equal((await fetchFeed(renewed.body.url ?? '')).status, 404);
});

test('a removed member who rejoins does not get the old feed URL back', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const photographer = await makeMember(server, team, 'Photographer');
  const old = (await photographer.client.post<FeedUrl>(`${base}/calendarfeed`)).body.url ?? '';
  assert.equal((await fetchFeed(old)).status, 200);

  const removed = await team.owner.client.del(`${base}/user`, { email: photographer.email });
  assert.equal(removed.status, 200);
  assert.equal((await fetchFeed(old)).status, 404);
  const left = await server.running.ctx.db
    .selectFrom('calendar_feed_tokens')
    .select('id')
    .where('team_id', '=', team.teamId)
    .where('user_id', '=', photographer.userId)
    .execute();
  assert.deepEqual(left, [], 'the feed secret is deleted with the membership');

  // Back in the team (re-added): the URL the phone may still hold stays dead.
  const db = server.running.ctx.db;
  const group = await teamQueries.findGroupByName(db, team.teamId, 'Photographer');
  await teamQueries.insertMember(db, team.teamId, photographer.userId, group.id);
  assert.equal((await fetchFeed(old)).status, 404);
  const none = await photographer.client.get<FeedUrl>(`${base}/calendarfeed`);
  assert.equal(none.body.url, null);
});
