import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { bigFeedLines } from '../../adapters/ics/fixtures/generate.ts';
import { memberForCommand } from '../teams/service.ts';
import { entryKey, listExternalEntries } from './queries.ts';
import { createExternalCalendar, updateExternalCalendar } from './service.ts';

// A feed of several thousand occurrences is stored in batches while it is expanded: every batch
// lands, a repeated occurrence counts once, and a refresh matches across all batches.

let feed = '';
let feedServer: http.Server;
let url = '';
let server: TestServer;

before(async () => {
  feedServer = http.createServer((req, res) => {
    const etag = `"${createHash('sha1').update(feed).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'text/calendar', etag }).end(feed);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/league.ics`;
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' }, { role: 'web' });
});

after(async () => {
  await server.stop();
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
});

/** An occurrence invited on its own (no series in the feed), twice: the first one counts. */
const orphan = (summary: string) =>
  `BEGIN:VEVENT\r\nUID:invite@fixtures.test\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:${year()}0301T100000Z\r\nDTSTART:${year()}0301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:${summary}\r\nEND:VEVENT\r\n`;
const year = () => new Date().getUTCFullYear();

test('a feed of 2,700 occurrences is stored in batches; a refresh updates, removes and adds across them', async () => {
  // 1,500 events within this year: 150 weekly series of 9 occurrences and 1,350 single events.
  const lines = [...bigFeedLines(1500, year())];
  feed = [...lines.slice(0, -1), orphan('First invitation'), orphan('Second copy'), lines.at(-1)].join('');
  const ctx = server.running.ctx;
  const team = await makeTeam(server);
  const member = await memberForCommand(ctx.db, { teamId: team.teamId, userId: team.owner.userId });

  const created = await createExternalCalendar(ctx, member, url);
  assert.equal(created.inserted, 2701);
  assert.equal(created.skipped, 1, 'the repeated invitation');
  const stored = await listExternalEntries(ctx.db, created.dbcalendarid);
  assert.equal(stored.length, 2701);
  assert.equal(new Set(stored.map((e) => e.key)).size, 2701);
  const invitation = stored.find((e) => e.key.startsWith('invite@'));
  assert.equal(invitation?.summary, 'First invitation');

  // Single events ending in 5 move by an hour (150 of them, spread over the whole feed); two
  // events go (one early, one late in the feed); one is new.
  feed = feed
    .replace(
      /(UID:match-\d*5@fixtures\.test\r\nDTSTAMP:\d+T\d+Z\r\nDTSTART;TZID=Europe\/Berlin:\d{8}T)(\d\d)/g,
      (_m, head: string, hour: string) => `${head}${String((Number(hour) + 1) % 24).padStart(2, '0')}`,
    )
    .replace(/BEGIN:VEVENT\r\nUID:match-(7|1207)@fixtures\.test\r\n[\s\S]*?END:VEVENT\r\n/g, '')
    .replace(
      'END:VCALENDAR',
      `BEGIN:VEVENT\r\nUID:new@fixtures.test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${year()}0601T120000Z\r\nSUMMARY:New\r\nEND:VEVENT\r\nEND:VCALENDAR`,
    );
  const refreshed = await updateExternalCalendar(ctx, member, created.refname);
  assert.deepEqual([refreshed.inserted, refreshed.updated, refreshed.removed], [1, 150, 2]);

  const now = new Map(
    (await listExternalEntries(ctx.db, created.dbcalendarid)).map((e) => [e.key, e] as const),
  );
  assert.equal(now.size, 2700);
  assert.ok(!now.has(entryKey('match-7@fixtures.test', null)));
  assert.ok(!now.has(entryKey('match-1207@fixtures.test', null)));
  assert.ok(now.has(entryKey('new@fixtures.test', null)));
  const before = stored.find((e) => e.key === entryKey('match-1495@fixtures.test', null));
  const moved = now.get(entryKey('match-1495@fixtures.test', null));
  assert.equal(moved?.id, before?.id, 'updated in place');
  assert.equal((moved?.start ?? 0) - (before?.start ?? 0), 3_600_000);

  const same = await updateExternalCalendar(ctx, member, created.refname);
  assert.equal(same.notModified, true);
});
