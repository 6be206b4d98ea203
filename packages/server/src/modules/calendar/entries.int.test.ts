import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CalendarEntry } from '@photorelay/contract/calendar';
import {
  createEntry,
  defaultCalendarId,
  getEntry,
  makeExternalEntry,
  matchDay,
} from '../../../test/support/calendar.ts';
import { grant, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Listing = {
  entries: CalendarEntry[];
  timeZone: string;
  total: number;
  nextOffset: number | null;
  error?: string;
  message?: string;
};

test('create, read, list by start then id, edit and delete entries in the team zone', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);

  const id = await createEntry(c, team.teamUuid, cal);
  const { entry } = (await getEntry(c, team.teamUuid, id)).body;
  assert.equal(entry.summary, 'FC Bayern München - Borussia Dortmund', "team events: 'team1 - team2'");
  assert.deepEqual(
    [entry.startdatetime, entry.enddatetime, entry.localizedStartDate, entry.localizedStartTime],
    ['2026-03-14T15:30:00+01:00', '2026-03-14T17:30:00+01:00', '14.03.2026', '15:30'],
    'end defaults to two hours later',
  );
  assert.deepEqual(
    [entry.calendartype, entry.urgency, entry.flags, entry.cancelled],
    ['default', 3, 0, false],
  );

  // The dialog's fields: dd.mm.yyyy and hh:mm in the team's zone, across midnight and a DST change.
  const night = await createEntry(c, team.teamUuid, cal, {
    startDate: '28.03.2026',
    startTime: '23:30',
    endDate: '29.03.2026',
    endTime: '04:00',
    category: 'news',
    subcategory: 'politics',
    scene: 'Wahl',
    summary: 'Wahlnacht',
  });
  const nightEntry = (await getEntry(c, team.teamUuid, night)).body.entry;
  assert.deepEqual(
    [
      nightEntry.startdatetime,
      nightEntry.enddatetime,
      nightEntry.localizedEndDate,
      nightEntry.localizedEndTime,
    ],
    ['2026-03-28T23:30:00+01:00', '2026-03-29T04:00:00+02:00', '29.03.2026', '04:00'],
  );
  // Same start as the first entry: the later id comes second.
  const twin = await createEntry(c, team.teamUuid, cal, {
    ...matchDay,
    team1: '',
    team2: '',
    summary: 'Twin',
  });

  const listing = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2026-03-01',
  });
  assert.equal(listing.status, 200);
  assert.deepEqual(
    listing.body.entries.map((e) => e.dbcalendarentryid),
    [id, twin, night],
  );
  assert.equal(listing.body.timeZone, 'Europe/Berlin');
  assert.deepEqual([listing.body.total, listing.body.nextOffset], [3, null], 'one page holds the month');
  // A calendar named twice is one; a calendar that is not the team's makes the whole call 404.
  const twice = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal, cal],
    startDate: '2026-03-01',
  });
  assert.deepEqual([twice.status, twice.body.total], [200, 3]);
  assert.equal(
    (await c.post(`${base}/calendar/entries`, { calendarIds: [cal, 2_000_000_000], startDate: '2026-03-01' }))
      .status,
    404,
  );
  // Pages of the month (ours: `limit`, `offset`; the table asks for 200 at a time).
  const pageOf = (offset: number) =>
    c.post<Listing>(`${base}/calendar/entries`, {
      calendarIds: [cal],
      startDate: '2026-03-01',
      offset,
      limit: 2,
    });
  const [first, second] = [(await pageOf(0)).body, (await pageOf(2)).body];
  assert.deepEqual(
    [first.entries.map((e) => e.dbcalendarentryid), first.total, first.nextOffset],
    [[id, twin], 3, 2],
  );
  assert.deepEqual([second.entries.map((e) => e.dbcalendarentryid), second.nextOffset], [[night], null]);
  assert.deepEqual((await pageOf(3)).body.entries, [], 'past the end: no entries');
  for (const paging of [{ limit: 0 }, { limit: 201 }, { offset: -1 }, { offset: 1.5 }])
    assert.equal(
      (await c.post(`${base}/calendar/entries`, { calendarIds: [cal], startDate: '2026-03-01', ...paging }))
        .status,
      400,
      JSON.stringify(paging),
    );
  const april = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2026-04-01',
  });
  assert.deepEqual(april.body.entries, []);

  // The team's zone decides how the same instant reads.
  assert.equal((await c.put(`${base}/timezone`, { timeZone: 'America/New_York' })).status, 200);
  const ny = (await getEntry(c, team.teamUuid, id)).body.entry;
  assert.deepEqual([ny.startdatetime, ny.localizedStartTime], ['2026-03-14T10:30:00-04:00', '10:30']);
  assert.equal((await c.put(`${base}/timezone`, { timeZone: 'Mars/Olympus' })).status, 400);
  await c.put(`${base}/timezone`, { timeZone: 'Europe/Berlin' });

  const edited = await c.put<{ entry: CalendarEntry }>(`${base}/calendar/${cal}/entry/${id}`, {
    ...matchDay,
    startdatetime: '2026-03-14T18:30:00+01:00',
    team1: 'FC Augsburg',
  });
  assert.equal(edited.status, 200);
  assert.deepEqual(
    [edited.body.entry.summary, edited.body.entry.localizedStartTime],
    ['FC Augsburg - Borussia Dortmund', '18:30'],
  );
  assert.equal((await c.del(`${base}/calendar/entry/${twin}`)).status, 200);
  assert.equal((await getEntry(c, team.teamUuid, twin)).status, 404);
});

test('bad input answers 400 with the spec texts and changes nothing', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const bad: Array<[object, string]> = [
    [
      { ...matchDay, startdatetime: undefined, startDate: '2026-03-14', startTime: '15:30' },
      'Invalid date - expecting date in dd.mm.yyyy format',
    ],
    [
      { ...matchDay, startdatetime: undefined, startDate: '31.02.2026', startTime: '15:30' },
      'Invalid date - expecting date in dd.mm.yyyy format',
    ],
    [
      { ...matchDay, startdatetime: undefined, startDate: '14.03.2026', startTime: '24:00' },
      'Invalid time - expecting time in hh:mm format',
    ],
    [
      { ...matchDay, startdatetime: '2021-12-31T20:00:00+01:00' },
      'Date must be between 01.01.2022 and 01.01.2030',
    ],
    [
      { ...matchDay, startdatetime: undefined, startDate: '02.01.2030', startTime: '10:00' },
      'Date must be between 01.01.2022 and 01.01.2030',
    ],
    [{ ...matchDay, startdatetime: '2026-03-14T15:30:00' }, 'ISO 8601'],
    [{ ...matchDay, scene: '' }, 'Required.'],
    [{ ...matchDay, category: 'culture' }, 'Unknown category'],
    [{ ...matchDay, flags: 2 ** 17 }, 'flags'],
    [{ ...matchDay, flags: -1 }, 'flags'],
    [{ ...matchDay, urgency: 9 }, 'urgency'],
    [{ ...matchDay, enddatetime: '2026-03-14T14:00:00+01:00' }, 'The end must not be before the start'],
  ];
  for (const [body, text] of bad) {
    const res = await c.post<{ error: string; message: string }>(`${base}/calendar/${cal}/entry`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error, 'ValidationError');
    assert.ok(res.body.message.includes(text), `${res.body.message} should name ${text}`);
  }
  const id = await createEntry(c, team.teamUuid, cal);
  // Issue 25: a bit is parsed like the ids; `0x2`, `2e0`, `+2`, `02`, `1.0` are no way to write 2 or 1.
  for (const bit of [17, -1, 'x', '0x2', '2e0', '%2B2', '02', '1.0', '%202']) {
    const res = await c.put(`${base}/calendarentry/${id}/flag/${bit}`, { value: true });
    assert.equal(res.status, 400, `flag ${bit}`);
  }
  const flagged = await server.running.ctx.db
    .selectFrom('calendar_entries')
    .select('flags')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(flagged.flags, 0, 'no refused bit was set');
  for (const startDate of ['2021-12-01', '2030-01-02', '01.03.2026', '2026-13-01']) {
    const res = await c.post(`${base}/calendar/entries`, { calendarIds: [cal], startDate });
    assert.equal(res.status, 400, startDate);
  }
  const listing = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2022-01-01',
    endDate: '2029-12-31',
  });
  assert.equal(listing.status, 400, 'a range over the limit');
  const all = await server.running.ctx.db
    .selectFrom('calendar_entries')
    .select('id')
    .where('team_id', '=', team.teamId)
    .execute();
  assert.deepEqual(
    all.map((r) => r.id),
    [id],
  );
});

test('flags are saved per bit, confirm and cancel, and the cancel mail', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const operator = await makeMember(server, team, 'Operator');
  const photographer = await makeMember(server, team, 'Photographer');
  const id = await createEntry(c, team.teamUuid, cal);

  // Two people ticking different boxes at once: both stay ticked.
  await Promise.all([
    c.put(`${base}/calendarentry/${id}/flag/0`, { value: true }),
    operator.client.put(`${base}/calendarentry/${id}/flag/16`, { value: true }),
  ]);
  let entry = (await getEntry(c, team.teamUuid, id)).body.entry;
  assert.equal(entry.flags, 1 + 2 ** 16);
  assert.deepEqual(
    [entry.flagDictionary.folderCreated, entry.flagDictionary.poland, entry.flagDictionary.pano],
    [true, true, false],
  );
  const cleared = await c.put<{ flags: number }>(`${base}/calendarentry/${id}/flag/0`, { value: false });
  assert.equal(cleared.body.flags, 2 ** 16);

  const confirmed = await operator.client.put<{ entry: CalendarEntry }>(
    `${base}/calendarentry/${id}/confirm`,
  );
  assert.deepEqual(
    [confirmed.body.entry.confirmedByCurrentUser, confirmed.body.entry.confirmedCount],
    [true, 1],
  );
  entry = (await getEntry(c, team.teamUuid, id)).body.entry;
  assert.deepEqual([entry.confirmedByCurrentUser, entry.confirmedCount], [false, 1]);

  await c.post(`${base}/booking`, { entryId: id, userId: photographer.userId, bookingState: 'accepted' });
  const cancelled = await c.put<{ entry: CalendarEntry }>(`${base}/calendarentry/${id}/cancel`);
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.entry.cancelled, true);
  const mail = await server.mail.waitFor(photographer.email, (m) => m.subject.includes('cancelled'));
  assert.ok(mail.text.includes('FC Bayern München - Borussia Dortmund (14.03.2026 15:30, Allianz Arena)'));
  // Still listed, marked cancelled.
  const listing = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2026-03-01',
  });
  assert.deepEqual(
    listing.body.entries.map((e) => [e.dbcalendarentryid, e.cancelled]),
    [[id, true]],
  );
  // The listing carries the same bookings and confirmations as the entry read on its own.
  const listed = listing.body.entries[0];
  assert.deepEqual(
    [listed.confirmedCount, listed.confirmedByCurrentUser, typeof listed.cancelledAt],
    [1, false, 'string'],
  );
  assert.deepEqual(
    listed.bookings.map((b) => [b.userId, b.bookingState, b.accreditation]),
    [[photographer.userId, 'accepted', 'notaccredited']],
  );
  assert.deepEqual(listed, (await getEntry(c, team.teamUuid, id)).body.entry);
  const operatorListing = await operator.client.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2026-03-01',
  });
  assert.equal(operatorListing.body.entries[0].confirmedByCurrentUser, true);
});

test('photographers: no external calendars, no changes, no bookings of others; other teams get 404', async () => {
  const team = await makeTeam(server);
  const other = await makeTeam(server, 'Other');
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const photographer = await makeMember(server, team, 'Photographer');
  const colleague = await makeMember(server, team, 'Photographer');
  await grant(
    server,
    team,
    (await rootFolder(server, team, 'calendars')).id,
    { userId: photographer.userId },
    ['read'],
  );
  const external = await makeExternalEntry(server, team.teamId, '2026-03-14T12:00:00Z');
  const id = await createEntry(c, team.teamUuid, cal);
  for (const who of [photographer, colleague])
    await c.post(`${base}/booking`, { entryId: id, userId: who.userId, bookingState: 'accepted' });

  const owners = await c.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal, external.calendarId],
    startDate: '2026-03-01',
  });
  assert.deepEqual(
    owners.body.entries.map((e) => e.calendartype),
    ['google', 'default'],
  );
  assert.equal(owners.body.entries[1].bookings.length, 2);

  const p = photographer.client;
  const calendars = await p.get<{ calendars: Array<{ type: string }> }>(`${base}/calendars`);
  assert.deepEqual(
    calendars.body.calendars.map((k) => k.type),
    ['default'],
  );
  assert.equal(
    (
      await p.post(`${base}/calendar/entries`, {
        calendarIds: [external.calendarId],
        startDate: '2026-03-01',
      })
    ).status,
    404,
  );
  assert.equal((await p.get(`${base}/calendarentry/${external.entryId}`)).status, 404);
  const own = await p.post<Listing>(`${base}/calendar/entries`, {
    calendarIds: [cal],
    startDate: '2026-03-01',
  });
  assert.deepEqual(
    own.body.entries[0].bookings.map((b) => b.userId),
    [photographer.userId],
  );
  for (const [method, path] of [
    ['POST', `${base}/calendar/${cal}/entry`],
    ['PUT', `${base}/calendar/${cal}/entry/${id}`],
    ['DELETE', `${base}/calendar/entry/${id}`],
    ['PUT', `${base}/calendarentry/${id}/cancel`],
    ['PUT', `${base}/calendarentry/${id}/flag/1`],
    ['POST', `${base}/calendarentry/${id}/copy`],
    ['GET', `${base}/calendar/xmp/${id}`],
  ] as const) {
    const res = await p.request(method, path, { ...matchDay, value: true });
    assert.deepEqual([res.status, res.body.error], [403, 'MissingPermission'], `${method} ${path}`);
  }
  // A colleague without read on the calendars folder sees no entries, only their own bookings.
  assert.equal((await colleague.client.get(`${base}/calendarentry/${id}`)).status, 404);
  const mine = await colleague.client.get<{ bookings: Array<{ booking: { userId: number } }> }>(
    `${base}/calendar/mybookings?from=2026-01-01`,
  );
  assert.deepEqual(
    mine.body.bookings.map((b) => b.booking.userId),
    [colleague.userId],
  );

  // Another team's owner: every id of this team is unknown to them.
  const o = other.owner.client;
  const ob = `/api/${other.teamUuid}`;
  assert.equal((await o.get(`${ob}/calendar/${cal}`)).status, 404);
  assert.equal((await o.get(`${ob}/calendarentry/${id}`)).status, 404);
  assert.equal(
    (await o.post(`${ob}/calendar/entries`, { calendarIds: [cal], startDate: '2026-03-01' })).status,
    404,
  );
  assert.equal((await o.put(`${ob}/calendar/${cal}/entry/${id}`, matchDay)).status, 404);
  assert.equal((await o.del(`${ob}/calendar/entry/${id}`)).status, 404);
  assert.equal((await o.post(`${ob}/calendar/${cal}/entry`, matchDay)).status, 404);
  assert.equal((await o.put(`${ob}/calendarentry/${id}/flag/1`, { value: true })).status, 404);
  assert.equal((await o.put(`${ob}/calendarentry/${id}/cancel`)).status, 404);
  assert.equal(
    (await o.post(`${ob}/booking`, { entryId: id, userId: photographer.userId, bookingState: 'canceled' }))
      .status,
    404,
  );
  assert.equal((await o.get(`${ob}/calendar/xmp/${id}`)).status, 404);
  assert.equal((await getEntry(c, team.teamUuid, id)).body.entry.cancelled, false);
});

test('an external entry is copied into the default calendar with its source; external entries stay read-only', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const external = await makeExternalEntry(server, team.teamId, '2026-05-02T13:30:00Z');
  const copy = await c.post<{ calendarentryid: number }>(`${base}/calendarentry/${external.entryId}/copy`);
  assert.equal(copy.status, 200);
  const entry = (await getEntry(c, team.teamUuid, copy.body.calendarentryid)).body.entry;
  assert.deepEqual(
    [entry.dbcalendarid, entry.calendartype, entry.sourceEntryId, entry.summary, entry.localizedStartTime],
    [cal, 'default', external.entryId, 'Hertha - Union', '15:30'],
  );
  assert.equal(
    (await c.put(`${base}/calendarentry/${external.entryId}/flag/1`, { value: true })).status,
    409,
  );
  assert.equal((await c.del(`${base}/calendar/entry/${external.entryId}`)).status, 409);
  assert.equal((await c.post(`${base}/calendar/${external.calendarId}/entry`, matchDay)).status, 409);
  assert.equal((await c.get(`${base}/calendar/xmp/${external.entryId}`)).status, 409);
});
