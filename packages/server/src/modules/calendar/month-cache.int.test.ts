import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CalendarEntry } from '@photorelay/contract/calendar';
import { sql } from 'kysely';
import {
  createEntry,
  defaultCalendarId,
  makeExternalEntry,
  matchDay,
} from '../../../test/support/calendar.ts';
import { testBackend } from '../../../test/support/database.ts';
import { grant, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { monthCacheStats } from './month-cache.ts';

// The month cache (PGlite only): a second unchanged call is a hit; a write to any table the month
// statement reads makes the next call a miss that shows the change; views never mix; off on PostgreSQL.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Listing = { entries: CalendarEntry[]; total: number };
const pglite = testBackend() === 'pglite';

test('month cache: hits while nothing changed, misses after a write to each table it reads', async () => {
  const db = server.running.ctx.db;
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const photographer = await makeMember(server, team, 'Photographer');
  await grant(
    server,
    team,
    (await rootFolder(server, team, 'calendars')).id,
    { userId: photographer.userId },
    ['read'],
  );
  const id = await createEntry(c, team.teamUuid, cal);
  const month = async (client = c) => {
    const res = await client.post<Listing>(`${base}/calendar/entries`, {
      calendarIds: [cal],
      startDate: '2026-03-01',
    });
    assert.equal(res.status, 200);
    return res.body;
  };
  /** Lists the month and says whether the cache answered. */
  const listed = async (client = c) => {
    const before = monthCacheStats(db);
    const body = await month(client);
    const now = monthCacheStats(db);
    assert.equal(
      now.hits + now.misses - before.hits - before.misses,
      pglite ? 1 : 0,
      'one look-up (none on PostgreSQL)',
    );
    return { body, hit: now.hits > before.hits };
  };
  const expectMiss = async (what: string, check: (body: Listing) => void) => {
    const { body, hit } = await listed();
    assert.equal(hit, false, `a miss after: ${what}`);
    check(body);
    const again = await listed();
    assert.equal(again.hit, pglite, `then a hit (PGlite) after: ${what}`);
    assert.deepEqual(again.body, body);
  };
  const only = (body: Listing) => {
    assert.equal(body.entries.length, 1);
    return body.entries[0] as CalendarEntry;
  };

  await listed();
  assert.equal(
    (await listed()).hit,
    pglite,
    'unchanged: the second call is a hit on PGlite, never on PostgreSQL',
  );

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
  await expectMiss('a deleted entry', (b) => assert.equal(b.total, 1));

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
  await expectMiss('a calendar', () => {});
  await db.updateTable('calendar_entries').set({ city: 'Berlin' }).where('id', '=', id).execute();
  await expectMiss('an entry written by SQL', (b) => assert.equal(only(b).city, 'Berlin'));
  await db.updateTable('bookings').set({ accreditation: 'requested' }).where('entry_id', '=', id).execute();
  await expectMiss('a booking written by SQL', (b) =>
    assert.equal(only(b).bookings[0]?.accreditation, 'requested'),
  );
  await makeExternalEntry(server, team.teamId, '2026-03-20T12:00:00Z');
  await expectMiss('another calendar of the team', () => {});
  // A change that a transaction rolls back costs a miss, never a wrong page.
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.updateTable('calendar_entries').set({ city: 'Nowhere' }).where('id', '=', id).execute();
      throw new Error('rolled back');
    })
    .catch(() => {});
  await expectMiss('a rolled-back update', (b) => assert.equal(only(b).city, 'Berlin'));
  // Truncate fires the trigger too: inside a transaction that is rolled back (the counter is not).
  const counter = async () =>
    Number(
      (await sql<{ n: number }>`select last_value as n from calendar_change_seq`.execute(db)).rows[0]?.n,
    );
  const start = await counter();
  await db
    .transaction()
    .execute(async (tx) => {
      await sql`truncate calendar_entry_confirmations`.execute(tx);
      throw new Error('rolled back');
    })
    .catch(() => {});
  assert.ok((await counter()) > start, 'truncate advances the counter');

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
  assert.equal((await listed(colleague.client)).hit, pglite);
  assert.equal(only(await month()).bookings.length, 1, 'the owner still sees it');
});
