import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ICAL from 'ical.js';
import { createEntry, defaultCalendarId, matchDay } from '../../../test/support/calendar.ts';
import { login, makeMember, makeTeam, makeUser, uniqueEmail } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 27 item 5: every mail is written in the recipient's language, never the sender's or the
// asking page's (except for an address that has not told us its own yet), and the per-member
// calendar feed too. The language is stored with the user and changed by PUT /user/language.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const db = () => server.running.ctx.db;
const setLanguage = (userId: number, language: 'en' | 'de') =>
  db().updateTable('users').set({ language }).where('id', '=', userId).execute();
const storedLanguage = async (email: string) =>
  (await db().selectFrom('users').select('language').where('email', '=', email).executeTakeFirstOrThrow())
    .language;

test('PUT /user/language stores the language (user/info answers it); a wrong one changes nothing', async () => {
  const user = await makeUser(server);
  const client = await login(server, user.email);
  assert.equal((await client.get<{ language: string }>('/api/user/info')).body.language, 'en');
  assert.equal((await client.put('/api/user/language', { language: 'de' })).status, 200);
  assert.equal((await client.get<{ language: string }>('/api/user/info')).body.language, 'de');
  assert.equal((await client.put('/api/user/language', { language: 'fr' })).status, 400);
  assert.equal(await storedLanguage(user.email), 'de');
  assert.equal((await server.client().put('/api/user/language', { language: 'en' })).status, 401);
});

test('a password reset asked for on an English page reaches a German account in German', async () => {
  const user = await makeUser(server);
  await setLanguage(user.userId, 'de');
  await server.client().post('/api/user/resetPassword', { email: user.email, language: 'en' });
  const mail = await server.mail.waitFor(user.email);
  assert.equal(mail.subject, 'PhotoRelay: Passwort zurücksetzen');
});

test('"send the verification mail again" from the German login of an English sign-up sends German', async () => {
  const email = uniqueEmail('unverified');
  const signup = await server.client().post('/api/user/register', {
    email,
    firstName: 'Jan',
    lastName: 'Nowak',
    password: 'secret1',
    companyName: 'Agentur',
    timezone: 'Europe/Berlin',
    language: 'en',
  });
  assert.equal(signup.status, 200);
  await server.mail.waitFor(email, (m) => /verify your e-mail/.test(m.subject));
  await server.client().post('/api/user/resendVerification', { email, language: 'de' });
  const again = await server.mail.waitFor(email, (m) => /bestätigen/.test(m.subject));
  assert.match(again.text, /Bitte bestätigen Sie Ihre E-Mail-Adresse/);
});

test("team invitations: an account's own language; an address without one the team owner's", async () => {
  const team = await makeTeam(server, 'Bildagentur');
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  // The owner works in German (switched in the app) but the inviting admin's app is English.
  assert.equal((await owner.put('/api/user/language', { language: 'de' })).status, 200);
  const admin = await makeMember(server, team, 'Operator');

  const newcomer = uniqueEmail('newcomer');
  const invited = await admin.client.post(`${base}/user`, { email: newcomer, sendInvitationIfNeeded: true });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));
  const mail = await server.mail.waitFor(newcomer);
  assert.match(mail.subject, /Einladung in das Team Bildagentur/);
  assert.equal(await storedLanguage(newcomer), 'de', 'the placeholder account keeps that language');

  // An account that signed up in German but has not verified yet: its own language, not the admin's.
  const unverified = uniqueEmail('unverified');
  await server.client().post('/api/user/register', {
    email: unverified,
    firstName: 'Eva',
    lastName: 'Braun',
    password: 'secret1',
    companyName: 'Eigene Agentur',
    timezone: 'Europe/Berlin',
    language: 'de',
  });
  await server.mail.waitFor(unverified);
  await admin.client.post(`${base}/user`, {
    email: unverified,
    sendInvitationIfNeeded: true,
    language: 'en',
  });
  const toUnverified = await server.mail.waitFor(unverified, (m) => /Team/.test(m.subject));
  assert.match(toUnverified.subject, /Einladung in das Team/);

  // A verified English account invited with the API's `language: 'de'`: its own language.
  const english = await makeUser(server);
  await admin.client.post(`${base}/user`, { email: english.email, language: 'de' });
  const toEnglish = await server.mail.waitFor(english.email);
  assert.match(toEnglish.subject, /you are invited to join Bildagentur/);
});

test("a German member's calendar feed says the booking state in German; an English one's in English", async () => {
  const team = await makeTeam(server);
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const id = await createEntry(owner, team.teamUuid, cal, {
    ...matchDay,
    startdatetime: '2027-03-14T15:30:00+01:00',
  });
  const german = await makeMember(server, team, 'Photographer');
  const english = await makeMember(server, team, 'Photographer');
  assert.equal((await german.client.put('/api/user/language', { language: 'de' })).status, 200);
  const descriptions: string[] = [];
  for (const member of [german, english]) {
    const booked = await owner.post(`${base}/booking`, {
      entryId: id,
      userId: member.userId,
      bookingState: 'accepted',
      accreditation: 'requested',
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    const url = (await member.client.post<{ url: string }>(`${base}/calendarfeed`)).body.url;
    const text = await (await fetch(url)).text();
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') ?? undefined,
    );
    descriptions.push(event.description.split('\n')[0]);
  }
  assert.deepEqual(descriptions, [
    'Buchung: zugesagt (Akkreditierung beantragt)',
    'Booking: accepted (accreditation requested)',
  ]);
});
