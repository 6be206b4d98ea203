import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Booking, CalendarEntry } from '@photorelay/contract/calendar';
import { createEntry, defaultCalendarId, getEntry } from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { linkIn } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { allowedStateChange } from './bookings.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type BookingAnswer = { booking: Booking; error?: string; message?: string };

test('booking state and accreditation follow spec §4 exactly; the rest is 409; every change is in the history', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const photographer = await makeMember(server, team, 'Photographer');
  const id = await createEntry(c, team.teamUuid, cal);
  const book = (body: object) =>
    c.post<BookingAnswer>(`${base}/booking`, { entryId: id, userId: photographer.userId, ...body });

  // Not accepted: accreditation and 'unset'/'rejected' are not on the menu.
  for (const body of [
    { accreditation: 'requested' },
    { bookingState: 'unset' },
    { bookingState: 'rejected' },
  ]) {
    const res = await book(body);
    assert.deepEqual([res.status, res.body.error], [409, 'Conflict'], JSON.stringify(body));
    assert.ok(res.body.message && res.body.message.length > 10);
  }
  assert.equal(
    (await getEntry(c, team.teamUuid, id)).body.entry.bookings.length,
    0,
    'a refused change leaves no booking',
  );

  const accepted = await book({ bookingState: 'accepted' });
  assert.deepEqual(
    [accepted.body.booking.bookingState, accepted.body.booking.accreditation],
    ['accepted', 'notaccredited'],
  );
  assert.equal((await book({ bookingState: 'accepted' })).status, 409, 'already accepted');
  assert.equal((await book({ bookingState: 'canceled' })).status, 409, 'accepted: only back to unset');
  assert.equal(
    (await book({ accreditation: 'notaccredited' })).status,
    409,
    'the current value is not offered',
  );
  for (const value of ['requested', 'processing', 'accredited', 'permanently', 'notaccredited'])
    assert.equal((await book({ accreditation: value })).body.booking.accreditation, value);
  const unset = await book({ bookingState: 'unset' });
  assert.equal(unset.body.booking.bookingState, 'unset', "'Cancel booking' on an accepted one");
  assert.equal((await book({ bookingState: 'canceled' })).body.booking.bookingState, 'canceled');
  assert.equal(
    (await book({ bookingState: 'accepted', accreditation: 'requested' })).body.booking.accreditation,
    'requested',
  );
  assert.equal((await book({ bookingState: 'bogus' })).status, 400);

  const history = await c.get<{
    history: Array<{ field: string; from: string; to: string; changedBy: number }>;
  }>(`${base}/calendarentry/${id}/bookinghistory`);
  assert.deepEqual(
    history.body.history.map((h) => `${h.field}:${h.from}>${h.to}`),
    [
      'bookingState:unset>accepted',
      'accreditation:notaccredited>requested',
      'accreditation:requested>processing',
      'accreditation:processing>accredited',
      'accreditation:accredited>permanently',
      'accreditation:permanently>notaccredited',
      'bookingState:accepted>unset',
      'bookingState:unset>canceled',
      'bookingState:canceled>accepted',
      'accreditation:notaccredited>requested',
    ],
  );
  assert.ok(history.body.history.every((h) => h.changedBy === team.owner.userId));
  assert.equal(allowedStateChange('rejected', 'accepted'), null);
});

test('two operators change one booking at once: each field keeps the later write, nothing is lost', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const operator = await makeMember(server, team, 'Operator');
  const photographer = await makeMember(server, team, 'Photographer');
  const id = await createEntry(c, team.teamUuid, cal);
  const body = { entryId: id, userId: photographer.userId };
  await c.post(`${base}/booking`, { ...body, bookingState: 'accepted' });
  const [a, b] = await Promise.all([
    c.post<BookingAnswer>(`${base}/booking`, { ...body, accreditation: 'requested' }),
    operator.client.post<BookingAnswer>(`${base}/booking`, { ...body, accreditation: 'processing' }),
  ]);
  assert.deepEqual([a.status, b.status], [200, 200]);
  const final = (await getEntry(c, team.teamUuid, id)).body.entry.bookings;
  assert.equal(final.length, 1, 'one booking, not two');
  const history = await c.get<{ history: Array<{ field: string; to: string }> }>(
    `${base}/calendarentry/${id}/bookinghistory`,
  );
  const last = history.body.history.filter((h) => h.field === 'accreditation').at(-1);
  assert.equal(final[0].accreditation, last?.to, 'the later write is what both see');
  const seen = (await operator.client.get<{ entry: CalendarEntry }>(`${base}/calendarentry/${id}`)).body
    .entry;
  assert.equal(seen.bookings[0].accreditation, final[0].accreditation);
});

test('invite by mail, accept from the link (both spellings), re-invite counts without a second booking', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const photographer = await makeMember(server, team, 'Photographer');
  const stranger = await makeMember(server, team, 'Photographer');
  const id = await createEntry(c, team.teamUuid, cal);

  assert.equal(
    (await c.post(`${base}/calendar/suggestentries`, { userIds: [], entryIds: [id] })).status,
    400,
  );
  assert.equal(
    (await c.post(`${base}/calendar/suggestentries`, { userIds: [999999], entryIds: [id] })).status,
    404,
  );
  assert.equal(
    (
      await photographer.client.post(`${base}/calendar/suggestentries`, {
        userIds: [photographer.userId],
        entryIds: [id],
      })
    ).status,
    403,
  );
  // The mail is in the photographer's language, not the sender's (issue 27 item 5).
  await server.running.ctx.db
    .updateTable('users')
    .set({ language: 'de' })
    .where('id', '=', photographer.userId)
    .execute();
  const sent = await c.post<{ invitations: number }>(`${base}/calendar/suggestentries`, {
    userIds: [photographer.userId],
    entryIds: [id],
    language: 'en',
  });
  assert.deepEqual([sent.status, sent.body.invitations], [200, 1]);
  const mail = await server.mail.waitFor(photographer.email);
  assert.match(mail.subject, /lädt Sie\s+ein/);
  const link = linkIn(mail);
  assert.equal(link.pathname, '/acceptPhotographerInivitation');
  const params = Object.fromEntries(link.searchParams);
  assert.deepEqual([params.userid, params.ciid], [String(photographer.userId), String(id)]);
  const { token, selector } = params;

  // The page shows the event to the invited user only.
  const shown = await photographer.client.get<{ entry: CalendarEntry; teamName: string }>(
    `/api/calendar/suggestentries/${id}?selector=${selector}&token=${token}`,
  );
  assert.equal(shown.status, 200);
  assert.deepEqual(
    [shown.body.entry.summary, shown.body.teamName.startsWith('Team ')],
    ['FC Bayern München - Borussia Dortmund', true],
  );
  const wrongUser = await stranger.client.post<{ message: string }>(
    `/api/calendar/suggestentries/${id}/confirm`,
    { token, selector },
  );
  assert.deepEqual([wrongUser.status, wrongUser.body.message], [403, 'invalid user id']);
  const wrongToken = await photographer.client.post(`/api/calendar/suggestentries/${id}/confirm`, {
    token: `${token}x`,
    selector,
  });
  assert.equal(wrongToken.status, 400);
  assert.equal(
    (await server.client().post(`/api/calendar/suggestentries/${id}/confirm`, { token, selector })).status,
    401,
  );

  // The spec's spelling, without the slash.
  const accepted = await photographer.client.post<{ answer: string }>(
    `/api/calendar/suggestentries${id}/confirm`,
    { token, selector },
  );
  assert.deepEqual([accepted.status, accepted.body.answer], [200, 'accepted']);
  let booking = (await getEntry(c, team.teamUuid, id)).body.entry.bookings;
  assert.deepEqual(
    booking.map((b) => [b.userId, b.bookingState, b.answer, b.suggested]),
    [[photographer.userId, 'unset', 'accepted', 1]],
  );

  await c.post(`${base}/calendar/suggestentries`, { userIds: [photographer.userId], entryIds: [id] });
  booking = (await getEntry(c, team.teamUuid, id)).body.entry.bookings;
  assert.deepEqual(
    booking.map((b) => b.suggested),
    [2],
    'counted on the same booking',
  );

  // The photographer declines from the calendar page; the agency may not accept a declined one? It may (§4).
  const declined = await photographer.client.post<BookingAnswer>(`${base}/calendar/mybookings/${id}`, {
    answer: 'rejected',
  });
  assert.deepEqual(
    [declined.body.booking.bookingState, declined.body.booking.answer],
    ['rejected', 'rejected'],
  );
  const mine = await photographer.client.get<{ bookings: Array<{ booking: Booking }> }>(
    `${base}/calendar/mybookings?from=2026-01-01`,
  );
  assert.deepEqual(
    mine.body.bookings.map((b) => b.booking.bookingState),
    ['rejected'],
  );
  assert.equal(
    (await stranger.client.post(`${base}/calendar/mybookings/${id}`, { answer: 'accepted' })).status,
    404,
  );

  const owner = await c.post<BookingAnswer>(`${base}/booking`, {
    entryId: id,
    userId: photographer.userId,
    bookingState: 'accepted',
  });
  assert.equal(owner.body.booking.bookingState, 'accepted');
  const late = await photographer.client.post(`/api/calendar/suggestentries/${id}/confirm`, {
    token,
    selector,
    answer: 'rejected',
  });
  assert.equal(late.status, 409, 'an accepted booking is cancelled by the agency, not declined');
});
