import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CalendarEntry } from '@photorelay/contract/calendar';
import { sql } from 'kysely';
import {
  createEntry,
  defaultCalendarId,
  getEntry,
  makeExternalEntry,
  matchDay,
} from '../../../test/support/calendar.ts';
import { grant, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { clearMonthCache, monthCacheStats } from './month-cache.ts';

// The listing's entry cache (PGlite and PostgreSQL): a second unchanged call is answered from the
// cache; a write to anything an entry shows makes the next call read it again and show the change;
// the views of owners and photographers never mix.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Listing = { entries: CalendarEntry[]; total: number };

/** A new team: its owner's client, its default calendar, and that calendar's March 2026 as listed. */
async function newTeamCalendar() {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const month = async (client = c) => {
    const res = await client.post<Listing>(`${base}/calendar/entries`, {
      calendarIds: [cal],
      startDate: '2026-03-01',
    });
    assert.equal(res.status, 200);
    return res.body;
  };
  return { db: server.running.ctx.db, team, c, base, cal, month };
}

test('entry cache: hits while nothing changed, misses after a write to each table an entry shows', async () => {
  const { db, team, c, base, cal, month } = await newTeamCalendar();
  const photographer = await makeMember(server, team, 'Photographer');
  await grant(
    server,
    team,
    (await rootFolder(server, team, 'calendars')).id,
    { userId: photographer.userId },
    ['read'],
  );
  const id = await createEntry(c, team.teamUuid, cal);
  /** Lists the month and says whether the cache answered every entry. */
  const listed = async (client = c) => {
    const before = monthCacheStats(db);
    const body = await month(client);
    const now = monthCacheStats(db);
    assert.equal(
      now.hits + now.misses - before.hits - before.misses,
      body.entries.length,
      'one look-up per entry',
    );
    return { body, hit: now.misses === before.misses };
  };
  const expectMiss = async (what: string, check: (body: Listing) => void) => {
    const { body, hit } = await listed();
    assert.equal(hit, false, `a miss after: ${what}`);
    check(body);
    const again = await listed();
    assert.equal(again.hit, true, `then a hit after: ${what}`);
    assert.deepEqual(again.body, body);
  };
  const only = (body: Listing) => {
    assert.equal(body.entries.length, 1);
    return body.entries[0] as CalendarEntry;
  };

  await listed();
  assert.equal((await listed()).hit, true, 'unchanged: the second call is a hit');

  // Through the API: entry update, flag, booking, confirmation, accreditation number, create, delete.
  assert.equal(
    (await c.put(`${base}/calendar/${cal}/entry/${id}`, { ...matchDay, city: 'Köln' })).status,
    200,
  );
  await expectMiss('an entry update', (b) => assert.equal(only(b).city, 'Köln'));
  assert.equal((await c.put(`${base}/calendarentry/${id}/flag/3`, { value: true })).status, 200);
  await expectMiss('a flag', (b) => assert.equal(only(b).flags, 8));
  const booked = await c.post(`${base}/booking`, {
    entryId: id,
    userId: photographer.userId,
    bookingState: 'accepted',
  });
  assert.equal(booked.status, 200);
  await expectMiss('a booking', (b) => assert.equal(only(b).bookings.length, 1));
  assert.equal((await c.put(`${base}/calendarentry/${id}/confirm`)).status, 200);
  await expectMiss('a confirmation', (b) => assert.equal(only(b).confirmedCount, 1));
  const numbered = await c.post(`${base}/teamuser/${photographer.userId}`, {
    accreditation_number: 'DFL-0815',
  });
  assert.equal(numbered.status, 200);
  await expectMiss('an accreditation number', (b) =>
    assert.equal(only(b).bookings[0]?.accreditationNumber, 'DFL-0815'),
  );
  const second = await createEntry(c, team.teamUuid, cal, { ...matchDay, summary: 'Second' });
  await expectMiss('a new entry', (b) => assert.equal(b.total, 2));
  assert.equal((await c.del(`${base}/calendar/entry/${second}`)).status, 200);
  // A deleted entry leaves the page; the other one is still current.
  const gone = await listed();
  assert.deepEqual([gone.body.total, only(gone.body).dbcalendarentryid, gone.hit], [1, id, true]);

  // By SQL: the tables without a call of their own here (the external refresh writes entries and calendars).
  await db
    .updateTable('users')
    .set({ first_name: 'Renamed' })
    .where('id', '=', photographer.userId)
    .execute();
  await expectMiss('a user name', (b) => assert.match(only(b).bookings[0]?.fullname ?? '', /^Renamed/));
  await db
    .updateTable('team_members')
    .set({ accreditation_number: 'X-1' })
    .where('user_id', '=', photographer.userId)
    .execute();
  await expectMiss('a team member', (b) => assert.equal(only(b).bookings[0]?.accreditationNumber, 'X-1'));
  await db.deleteFrom('calendar_entry_confirmations').where('entry_id', '=', id).execute();
  await expectMiss('a confirmation removed', (b) => assert.equal(only(b).confirmedCount, 0));
  await db.updateTable('calendars').set({ name: 'Renamed' }).where('id', '=', cal).execute();
  assert.equal((await listed()).hit, true, "a calendar's name is not shown: still a hit");
  await db.updateTable('calendars').set({ type: 'external' }).where('id', '=', cal).execute();
  await expectMiss("a calendar's type", (b) => assert.equal(only(b).calendartype, 'external'));
  await db.updateTable('calendars').set({ type: 'default' }).where('id', '=', cal).execute();
  await expectMiss("a calendar's type again", (b) => assert.equal(only(b).calendartype, 'default'));
  await db.updateTable('users').set({ language: 'de' }).where('id', '=', photographer.userId).execute();
  assert.equal((await listed()).hit, true, "a user's language is not shown: still a hit");
  await db.updateTable('calendar_entries').set({ city: 'Berlin' }).where('id', '=', id).execute();
  await expectMiss('an entry written by SQL', (b) => assert.equal(only(b).city, 'Berlin'));
  await db.updateTable('bookings').set({ accreditation: 'requested' }).where('entry_id', '=', id).execute();
  await expectMiss('a booking written by SQL', (b) =>
    assert.equal(only(b).bookings[0]?.accreditation, 'requested'),
  );
  await makeExternalEntry(server, team.teamId, '2026-03-20T12:00:00Z');
  assert.equal((await listed()).hit, true, 'an entry of a calendar not listed: still a hit');
  // A change that a transaction rolls back leaves the version as it was: the cached entry stands.
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.updateTable('calendar_entries').set({ city: 'Nowhere' }).where('id', '=', id).execute();
      throw new Error('rolled back');
    })
    .catch(() => {});
  const kept = await listed();
  assert.equal(kept.hit, true, 'a rolled-back update');
  assert.equal(only(kept.body).city, 'Berlin');
  // Truncate names no rows: every team's entries are read again.
  assert.equal((await c.put(`${base}/calendarentry/${id}/confirm`)).status, 200);
  await expectMiss('a confirmation again', (b) => assert.equal(only(b).confirmedCount, 1));
  await sql`truncate calendar_entry_confirmations`.execute(db);
  await expectMiss('a truncate', (b) => assert.equal(only(b).confirmedCount, 0));
  // A changed team time zone: the entries are written in the new zone.
  assert.equal((await c.put(`${base}/timezone`, { timeZone: 'America/New_York' })).status, 200);
  await expectMiss('a time zone', (b) => assert.match(only(b).startdatetime, /-0[45]:00$/));
  assert.equal((await c.put(`${base}/timezone`, { timeZone: 'Europe/Berlin' })).status, 200);
  clearMonthCache(db);
  await expectMiss('a cleared cache', (b) => assert.match(only(b).startdatetime, /\+0[12]:00$/));

  // The photographer's view and the owner's never mix: each is its own key.
  const owners = await month();
  const mine = await month(photographer.client);
  assert.equal(only(owners).bookings.length, 1);
  assert.equal(only(mine).bookings.length, 1);
  const colleague = await makeMember(server, team, 'Photographer');
  await grant(server, team, (await rootFolder(server, team, 'calendars')).id, { userId: colleague.userId }, [
    'read',
  ]);
  const theirs = await listed(colleague.client);
  assert.equal(only(theirs.body).bookings.length, 0, "a colleague never sees another's booking");
  assert.equal((await listed(colleague.client)).hit, true);
  assert.equal(only((await listed(colleague.client)).body).confirmedByCurrentUser, false);
  assert.equal(only(await month()).bookings.length, 1, 'the owner still sees it');
});

test('version triggers: deleting an entry while its booking changes never deadlocks', async () => {
  const { team, c, base, cal } = await newTeamCalendar();
  const photographer = await makeMember(server, team, 'Photographer');
  for (let round = 0; round < 15; round++) {
    const id = await createEntry(c, team.teamUuid, cal);
    const book = (body: object) =>
      c.post(`${base}/booking`, { entryId: id, userId: photographer.userId, ...body });
    assert.equal((await book({ bookingState: 'accepted' })).status, 200);
    const [changed, deleted] = await Promise.all([
      book({ accreditation: 'requested' }),
      c.del(`${base}/calendar/entry/${id}`),
    ]);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.ok(
      [200, 404].includes(changed.status),
      `booking change: ${changed.status} ${JSON.stringify(changed.body)}`,
    );
  }
});

test("a cold listing shows an entry exactly as reading it does (the row's listing texts, migration 0028)", async () => {
  const { db, team, c, base, cal, month } = await newTeamCalendar();
  const [first, second] = [
    await makeMember(server, team, 'Photographer'),
    await makeMember(server, team, 'Photographer'),
  ];
  const id = await createEntry(c, team.teamUuid, cal, {
    ...matchDay,
    summary: 'FC Bayern München - Borussia Dortmund "Der Klassiker" \\ Ü',
    description: 'Zeile 1\nZeile 2\t€',
    allDay: false,
  });
  for (const [who, body] of [
    [first, { bookingState: 'accepted' }],
    [first, { accreditation: 'requested' }],
    [second, { bookingState: 'accepted' }],
  ] as const) {
    const booked = await c.post(`${base}/booking`, { entryId: id, userId: who.userId, ...body });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
  }
  assert.equal((await c.put(`${base}/calendarentry/${id}/flag/16`, { value: true })).status, 200);
  assert.equal((await c.put(`${base}/calendarentry/${id}/confirm`)).status, 200);
  assert.equal(
    (await c.post(`${base}/teamuser/${first.userId}`, { accreditation_number: 'DFL 7' })).status,
    200,
  );
  assert.equal((await c.put(`${base}/calendarentry/${id}/cancel`)).status, 200);
  const read = await getEntry(c, team.teamUuid, id);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  clearMonthCache(db);
  const misses = monthCacheStats(db).misses;
  const listing = await month();
  assert.equal(monthCacheStats(db).misses, misses + 1, 'read in full');
  assert.deepEqual(listing.entries, [read.body.entry]);
  const listed = listing.entries[0] as CalendarEntry;
  assert.deepEqual(
    [listed.bookings.length, listed.bookings.find((b) => b.userId === first.userId)?.accreditationNumber],
    [2, 'DFL 7'],
  );
  assert.deepEqual([listed.cancelled, listed.confirmedByCurrentUser, listed.flags], [true, true, 1 << 16]);
});

test('bookings written at once by two transactions are both listed (the entry is locked before its list is written)', async () => {
  const { db, team, c, cal, month } = await newTeamCalendar();
  const id = await createEntry(c, team.teamUuid, cal);
  const people = [
    await makeMember(server, team, 'Photographer'),
    await makeMember(server, team, 'Photographer'),
  ];
  // By SQL, without the service's lock: the first transaction holds its booking uncommitted while
  // the second writes another one (on PGlite, one connection, they simply take turns).
  let firstInserted: () => void = () => {};
  const inserted = new Promise<void>((resolve) => {
    firstInserted = resolve;
  });
  const book = (userId: number) =>
    ({ team_id: team.teamId, entry_id: id, user_id: userId, state: 'accepted', suggested: 0 }) as const;
  await Promise.all([
    db.transaction().execute(async (tx) => {
      await tx
        .insertInto('bookings')
        .values(book(people[0]?.userId as number))
        .execute();
      firstInserted();
      await sql`select pg_sleep(0.3)`.execute(tx);
    }),
    inserted.then(() =>
      db
        .insertInto('bookings')
        .values(book(people[1]?.userId as number))
        .execute(),
    ),
  ]);
  const row = await db
    .selectFrom('calendar_entries')
    .select('listed_bookings')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const users = (JSON.parse(row.listed_bookings ?? '[]') as number[][]).map((b) => b[1]).sort();
  assert.deepEqual(users, people.map((p) => p.userId).sort());
  clearMonthCache(db);
  assert.equal((await month()).entries[0]?.bookings.length, 2);
});

test("booked people's names: members with the month's statement, a former member and one who joined since by id", async () => {
  const { db, team, c, base, cal, month } = await newTeamCalendar();
  const [leaving, staying] = [
    await makeMember(server, team, 'Photographer'),
    await makeMember(server, team, 'Photographer'),
  ];
  const names = async () =>
    new Map(
      (await db.selectFrom('users').select(['id', 'first_name', 'last_name']).execute()).map((u) => [
        u.id,
        `${u.first_name} ${u.last_name}`,
      ]),
    );
  const id = await createEntry(c, team.teamUuid, cal);
  for (const who of [leaving, staying])
    assert.equal(
      (await c.post(`${base}/booking`, { entryId: id, userId: who.userId, bookingState: 'accepted' })).status,
      200,
    );
  const shown = async () =>
    new Map((await month()).entries[0]?.bookings.map((b) => [b.userId, b.fullname]) ?? []);
  const expected = await names();
  assert.deepEqual(await shown(), new Map([leaving, staying].map((p) => [p.userId, expected.get(p.userId)])));
  // The people are held now; one leaves the team, cold and warm listings still name them.
  await db.deleteFrom('team_members').where('user_id', '=', leaving.userId).execute();
  await db.updateTable('bookings').set({ suggested: 2 }).where('entry_id', '=', id).execute();
  assert.equal((await shown()).get(leaving.userId), expected.get(leaving.userId), 'a former member, warm');
  clearMonthCache(db);
  assert.equal((await shown()).get(leaving.userId), expected.get(leaving.userId), 'a former member, cold');
  // Someone who joins after the members were read is named when booked.
  const joining = await makeMember(server, team, 'Photographer');
  assert.equal(
    (await c.post(`${base}/booking`, { entryId: id, userId: joining.userId, bookingState: 'accepted' }))
      .status,
    200,
  );
  assert.equal((await shown()).get(joining.userId), (await names()).get(joining.userId), 'joined since');
  assert.equal((await shown()).size, 3);
});
