import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { ExternalCalendar, ExternalCalendarCommandDetail } from '@photorelay/contract/externalcalendars';
import { runCommand } from '../../../test/support/commands.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { claimDueCalendar, releaseRefreshLease } from './queries.ts';
import { refreshDueCalendars, refreshEvery } from './service.ts';

// A league's feed on a local server (loopback: the test server runs with ALLOW_PRIVATE_NETWORKS=1).
const feeds = new Map<string, string>();
let feedServer: http.Server;
let feedBase = '';
let server: TestServer;

function leagueFeed(opts: { moved?: string; dropSecond?: boolean; extra?: boolean } = {}) {
  const event = (uid: string, start: string, summary: string) =>
    `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${start}\r\nDURATION:PT2H\r\nSUMMARY:${summary}\r\nLOCATION:Olympiastadion\r\nEND:VEVENT\r\n`;
  return [
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//league//EN\r\nX-WR-CALNAME:League\r\n',
    event('match-1@league', opts.moved ?? '20270110T143000Z', 'Hertha - Union'),
    opts.dropSecond ? '' : event('match-2@league', '20270117T143000Z', 'Union - Hertha'),
    opts.extra ? event('match-3@league', '20270124T143000Z', 'Hertha - Bayern') : '',
    // A weekly series: three occurrences, matched by UID + recurrence id.
    'BEGIN:VEVENT\r\nUID:training@league\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20270105T090000Z\r\nDTEND:20270105T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:Open training\r\nEND:VEVENT\r\n',
    'END:VCALENDAR\r\n',
  ].join('');
}

before(async () => {
  feedServer = http.createServer((req, res) => {
    const body = feeds.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'text/calendar', etag }).end(body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
});

after(async () => {
  await server.stop();
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
});

type Entry = {
  dbcalendarentryid: number;
  summary: string;
  startdatetime: string;
  sourceStatus: string | null;
  bookings: { userId: number }[];
};

async function entriesOf(
  client: TestServer['client'] extends () => infer C ? C : never,
  teamUuid: string,
  ids: number[],
) {
  const res = await client.post<{ entries: Entry[] }>(`/api/${teamUuid}/calendar/entries`, {
    calendarIds: ids,
    startDate: '2027-01-01',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.entries;
}

test('add a feed, copy and book an entry, refresh after the feed changed: copies are marked, bookings kept', async () => {
  const team = await makeTeam(server);
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  feeds.set('/league.ics', leagueFeed());

  const created = await runCommand<ExternalCalendarCommandDetail>(
    owner,
    team.teamUuid,
    'createexternalcalendar',
    {
      calendarUrl: `  ${feedBase}/league.ics `,
    },
  );
  assert.equal(created.state, 'ok', JSON.stringify(created.detail));
  assert.equal(created.detail.name, 'League');
  assert.equal(created.detail.inserted, 5);
  const calendarId = created.detail.dbcalendarid;

  const list = await owner.get<{ calendars: ExternalCalendar[] }>(`${base}/externalcalendars`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.calendars.map((c) => [c.name, c.type, c.url, c.entryCount]),
    [['League', 'google', `${feedBase}/league.ics`, 5]],
  );

  const before = await entriesOf(owner, team.teamUuid, [calendarId]);
  assert.deepEqual(
    before.map((e) => e.summary),
    ['Open training', 'Hertha - Union', 'Open training', 'Union - Hertha', 'Open training'],
  );
  const first = before.find((e) => e.summary === 'Hertha - Union');
  const second = before.find((e) => e.summary === 'Union - Hertha');
  assert.ok(first && second);

  // The team copies, each with a booking.
  const photographer = await makeMember(server, team, 'Photographer');
  const copies: number[] = [];
  for (const source of [first, second]) {
    const copy = await owner.post<{ calendarentryid: number }>(
      `${base}/calendarentry/${source.dbcalendarentryid}/copy`,
    );
    assert.equal(copy.status, 200, JSON.stringify(copy.body));
    copies.push(copy.body.calendarentryid);
    const booked = await owner.post(`${base}/booking`, {
      entryId: copy.body.calendarentryid,
      userId: photographer.userId,
      bookingState: 'accepted',
    });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
  }

  // Unchanged: answered 304, nothing read.
  const refname = list.body.calendars[0].refname;
  const same = await runCommand<ExternalCalendarCommandDetail>(
    owner,
    team.teamUuid,
    'updateexternalcalendar',
    {
      calendarRefName: refname,
    },
  );
  assert.equal(same.state, 'ok');
  assert.equal(same.detail.notModified, true);

  // The first match moves, the second is gone, a third appears.
  feeds.set('/league.ics', leagueFeed({ moved: '20270110T170000Z', dropSecond: true, extra: true }));
  const changed = await runCommand<ExternalCalendarCommandDetail>(
    owner,
    team.teamUuid,
    'updateexternalcalendar',
    {
      calendarRefName: refname,
    },
  );
  assert.equal(changed.state, 'ok', JSON.stringify(changed.detail));
  assert.deepEqual([changed.detail.inserted, changed.detail.updated, changed.detail.removed], [1, 1, 1]);
  // The calendar list says what the last refresh changed and when it ran (issue 27 item 10).
  const listed = await owner.get<{
    calendars: { refname: string; refreshedAt?: string | null; lastChanges?: unknown }[];
  }>(`${base}/calendars`);
  const shown = listed.body.calendars.find((c) => c.refname === refname);
  assert.deepEqual(shown?.lastChanges, { inserted: 1, updated: 1, removed: 1 });
  assert.ok(Date.now() - Date.parse(shown?.refreshedAt ?? '') < 120_000, 'ran just now');

  const after = await entriesOf(owner, team.teamUuid, [calendarId]);
  const moved = after.find((e) => e.summary === 'Hertha - Union');
  assert.equal(moved?.dbcalendarentryid, first.dbcalendarentryid, 'updated in place');
  assert.equal(moved?.startdatetime.slice(11, 16), '18:00');
  assert.ok(!after.some((e) => e.summary === 'Union - Hertha'));
  assert.ok(after.some((e) => e.summary === 'Hertha - Bayern'));
  assert.deepEqual(
    after.filter((e) => e.summary === 'Open training').map((e) => e.dbcalendarentryid),
    before.filter((e) => e.summary === 'Open training').map((e) => e.dbcalendarentryid),
  );

  const copyRows = await server.running.ctx.db
    .selectFrom('calendar_entries')
    .select(['id', 'source_status', 'start_at'])
    .where('id', 'in', copies)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    copyRows.map((r) => r.source_status),
    ['changed', 'vanished'],
  );
  assert.equal(
    copyRows[0].start_at.toISOString(),
    '2027-01-10T14:30:00.000Z',
    'the copy itself is not moved',
  );
  const bookings = await server.running.ctx.db
    .selectFrom('bookings')
    .select(['entry_id', 'state'])
    .where('entry_id', 'in', copies)
    .execute();
  assert.equal(bookings.length, 2);
  assert.ok(bookings.every((b) => b.state === 'accepted'));

  // Deleting the calendar removes its entries; the copies stay, marked vanished.
  const del = await owner.del(`${base}/calendar/${calendarId}`);
  assert.equal(del.status, 200);
  const left = await server.running.ctx.db
    .selectFrom('calendar_entries')
    .select(['id', 'source_status'])
    .where('team_id', '=', team.teamId)
    .execute();
  assert.deepEqual(left.map((r) => r.source_status).sort(), ['vanished', 'vanished']);
});

test('failures answer with the reason; the default calendar cannot be deleted; bad input changes nothing', async () => {
  const team = await makeTeam(server);
  const owner = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  feeds.set('/page.html', '<html>no calendar</html>');
  const notCalendar = await runCommand<string>(owner, team.teamUuid, 'createexternalcalendar', {
    calendarUrl: `${feedBase}/page.html`,
  });
  assert.equal(notCalendar.state, 'error');
  assert.match(String(notCalendar.detail), /does not return a calendar/);
  const missing = await runCommand<string>(owner, team.teamUuid, 'createexternalcalendar', {
    calendarUrl: `${feedBase}/nothing.ics`,
  });
  assert.equal(missing.state, 'error');
  assert.match(String(missing.detail), /HTTP 404/);
  const scheme = await runCommand<string>(owner, team.teamUuid, 'createexternalcalendar', {
    calendarUrl: 'ftp://example.org/x.ics',
  });
  assert.match(String(scheme.detail), /Only http, https and webcal/);
  const short = await owner.post(`${base}/command/createexternalcalendar`, { calendarUrl: ' ab ' });
  assert.equal(short.status, 400);

  const calendars = await owner.get<{ calendars: ExternalCalendar[] }>(`${base}/externalcalendars`);
  assert.deepEqual(calendars.body.calendars, []);
  const defaultCalendar = await server.running.ctx.db
    .selectFrom('calendars')
    .select('id')
    .where('team_id', '=', team.teamId)
    .where('type', '=', 'default')
    .executeTakeFirstOrThrow();
  const del = await owner.del(`${base}/calendar/${defaultCalendar.id}`);
  assert.equal(del.status, 409);
  assert.match(JSON.stringify(del.body), /default calendar cannot be deleted/);
  const unknown = await runCommand<string>(owner, team.teamUuid, 'updateexternalcalendar', {
    calendarRefName: 'nope',
  });
  assert.equal(unknown.state, 'error');
});

test('photographers never see external calendars; another team gets 404; the hourly refresh takes due ones', async () => {
  const team = await makeTeam(server);
  const other = await makeTeam(server);
  feeds.set('/hourly.ics', leagueFeed());
  const created = await runCommand<ExternalCalendarCommandDetail>(
    team.owner.client,
    team.teamUuid,
    'createexternalcalendar',
    {
      calendarUrl: `${feedBase}/hourly.ics`,
    },
  );
  assert.equal(created.state, 'ok');
  const id = created.detail.dbcalendarid;
  const base = `/api/${team.teamUuid}`;

  const photographer = await makeMember(server, team, 'Photographer');
  assert.equal((await photographer.client.get(`${base}/externalcalendars`)).status, 403);
  assert.equal((await photographer.client.del(`${base}/calendar/${id}`)).status, 403);
  assert.equal(
    (
      await photographer.client.post(`${base}/command/updateexternalcalendar`, {
        calendarRefName: created.detail.refname,
      })
    ).status,
    403,
  );
  const seen = await photographer.client.get<{ calendars: { type: string }[] }>(`${base}/calendars`);
  assert.ok(seen.body.calendars.every((c) => c.type === 'default'));
  const operator = await makeMember(server, team, 'Operator');
  assert.equal((await operator.client.get(`${base}/externalcalendars`)).status, 200);

  assert.equal((await other.owner.client.del(`/api/${other.teamUuid}/calendar/${id}`)).status, 404);
  const foreign = await runCommand<string>(other.owner.client, other.teamUuid, 'updateexternalcalendar', {
    calendarRefName: created.detail.refname,
  });
  assert.equal(foreign.state, 'error');

  // Due now: the hourly loop refreshes it (answered 304) and sets the next time about an hour on.
  const db = server.running.ctx.db;
  await db
    .updateTable('calendars')
    .set({ refresh_due_at: new Date(Date.now() - 1000) })
    .where('id', '=', id)
    .execute();
  feeds.set('/hourly.ics', leagueFeed({ extra: true }));
  assert.ok((await refreshDueCalendars(server.running.ctx)) >= 1);
  const row = await db
    .selectFrom('calendars')
    .select(['refresh_due_at', 'refreshing_until', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const next = (row.refresh_due_at?.getTime() ?? 0) - Date.now();
  assert.ok(next > 3500_000 && next < 4300_000, String(next));
  assert.equal(row.refreshing_until, null);
  assert.equal(row.last_error, null);
  const count = await db
    .selectFrom('calendar_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('calendar_id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 6);
});

test('the hourly refresh takes one calendar of a team at a time and staggers the next times', async () => {
  const team = await makeTeam(server);
  const db = server.running.ctx.db;
  const ids: number[] = [];
  for (const name of ['/one.ics', '/two.ics']) {
    feeds.set(name, leagueFeed());
    const created = await runCommand<ExternalCalendarCommandDetail>(
      team.owner.client,
      team.teamUuid,
      'createexternalcalendar',
      { calendarUrl: `${feedBase}${name}` },
    );
    assert.equal(created.state, 'ok');
    ids.push(created.detail.dbcalendarid);
  }
  const [first, second] = ids as [number, number];
  await db
    .updateTable('calendars')
    .set({ refresh_due_at: new Date(Date.now() - 60_000) })
    .where('id', '=', first)
    .execute();
  await db
    .updateTable('calendars')
    .set({ refresh_due_at: new Date(Date.now() - 30_000) })
    .where('id', '=', second)
    .execute();
  const claim = async () => {
    // Other teams' due calendars (none in this file's other tests) would be taken too: skip them.
    for (;;) {
      const due = await claimDueCalendar(db, 300, refreshEvery.seconds, refreshEvery.jitterSeconds);
      if (!due || due.team_id === team.teamId) return due?.id;
    }
  };
  assert.equal(await claim(), first, 'the longest due first');
  assert.equal(await claim(), undefined, 'not the second while the first refreshes');
  await releaseRefreshLease(db, first);
  assert.equal(await claim(), second);
  await releaseRefreshLease(db, second);
  assert.equal(await claim(), undefined, 'both are due again only in about an hour');
  const rows = await db.selectFrom('calendars').select('refresh_due_at').where('id', 'in', ids).execute();
  for (const row of rows) {
    const next = (row.refresh_due_at?.getTime() ?? 0) - Date.now();
    assert.ok(
      next > 3500_000 && next <= (refreshEvery.seconds + refreshEvery.jitterSeconds) * 1000,
      String(next),
    );
  }
});
