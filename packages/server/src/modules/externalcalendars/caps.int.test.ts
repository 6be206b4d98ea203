import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { ExternalCalendar, ExternalCalendarCommandDetail } from '@photorelay/contract/externalcalendars';
import { limits } from '@photorelay/contract/limits';
import { runCommand } from '../../../test/support/commands.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import type { IcsEvent } from '../../adapters/ics/parse.ts';
import * as q from './queries.ts';

// Issue 25 item 2: no cap on a team's external calendars or the entries imported into them.
// The caps (limits.externalCalendarsPerTeam, limits.importedEntriesPerTeam) refuse with a plain
// error and change nothing; the list shows the counts the owner sees against them.

const feeds = new Map<string, string>();
const fetches = new Map<string, number>();
let feedServer: http.Server;
let feedBase = '';
let server: TestServer;

/** `count` single events in 2027. */
function feedOf(name: string, count: number) {
  const events = Array.from({ length: count }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    return `BEGIN:VEVENT\r\nUID:${name}-${i}@caps\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:202703${day}T100000Z\r\nDURATION:PT1H\r\nSUMMARY:${name} ${i}\r\nEND:VEVENT\r\n`;
  });
  return `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//caps//EN\r\nX-WR-CALNAME:${name}\r\n${events.join('')}END:VCALENDAR\r\n`;
}

before(async () => {
  feedServer = http.createServer((req, res) => {
    const path = req.url ?? '';
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const body = feeds.get(path);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(body);
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

/** A feed stored as if imported earlier, with `entries` entries. */
async function storedCalendar(teamId: number, name: string, entries: number) {
  const db = server.running.ctx.db;
  const folderId = await q.findCalendarsFolder(db, teamId);
  assert.ok(folderId);
  const id = await q.insertExternalCalendar(db, {
    teamId,
    folderId,
    name,
    refname: `ext-${name}-${teamId}`,
    url: `${feedBase}/${name}.ics`,
    etag: null,
    lastModified: null,
    refreshDueAt: new Date(Date.now() + 3_600_000),
  });
  const events: IcsEvent[] = Array.from({ length: entries }, (_, i) => ({
    uid: `${name}-${i}@stored`,
    recurrenceId: null,
    start: new Date(Date.UTC(2027, 0, 1) + i * 60_000),
    end: new Date(Date.UTC(2027, 0, 1) + i * 60_000 + 3_600_000),
    allDay: false,
    summary: `${name} ${i}`,
    description: '',
    location: '',
  }));
  await q.insertExternalEntries(db, teamId, id, events);
  return id;
}

test(`a team has at most ${limits.externalCalendarsPerTeam} external calendars`, async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  for (let i = 1; i < limits.externalCalendarsPerTeam; i++) await storedCalendar(team.teamId, `old${i}`, 1);
  feeds.set('/last.ics', feedOf('Last', 3));
  const last = await runCommand<ExternalCalendarCommandDetail>(
    owner(team),
    team.teamUuid,
    'createexternalcalendar',
    {
      calendarUrl: `${feedBase}/last.ics`,
    },
  );
  assert.equal(last.state, 'ok', JSON.stringify(last.detail));

  feeds.set('/one-too-many.ics', feedOf('Too many', 3));
  const refused = await runCommand(owner(team), team.teamUuid, 'createexternalcalendar', {
    calendarUrl: `${feedBase}/one-too-many.ics`,
  });
  assert.equal(refused.state, 'error');
  assert.equal(
    refused.detail,
    `A team can have at most ${limits.externalCalendarsPerTeam} external calendars`,
  );
  assert.equal(fetches.get('/one-too-many.ics'), undefined, 'the feed is not even fetched');
  const list = await owner(team).get<{ calendars: ExternalCalendar[] }>(`${base}/externalcalendars`);
  assert.equal(list.body.calendars.length, limits.externalCalendarsPerTeam);
});

test(`a team's external calendars hold at most ${limits.importedEntriesPerTeam} entries together`, async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const room = 20;
  await storedCalendar(team.teamId, 'season', limits.importedEntriesPerTeam - room);

  // One entry over the room left: refused, nothing stored.
  feeds.set('/over.ics', feedOf('Over', room + 1));
  const over = await runCommand(owner(team), team.teamUuid, 'createexternalcalendar', {
    calendarUrl: `${feedBase}/over.ics`,
  });
  assert.equal(over.state, 'error');
  assert.equal(
    over.detail,
    `The team's external calendars would hold more than ${limits.importedEntriesPerTeam.toLocaleString('en')} entries`,
  );
  let list = await owner(team).get<{ calendars: ExternalCalendar[] }>(`${base}/externalcalendars`);
  assert.deepEqual(
    list.body.calendars.map((c) => c.entryCount),
    [limits.importedEntriesPerTeam - room],
  );

  // Exactly the room left: stored.
  feeds.set('/fits.ics', feedOf('Fits', room));
  const fits = await runCommand<ExternalCalendarCommandDetail>(
    owner(team),
    team.teamUuid,
    'createexternalcalendar',
    {
      calendarUrl: `${feedBase}/fits.ics`,
    },
  );
  assert.equal(fits.state, 'ok', JSON.stringify(fits.detail));
  assert.equal(fits.detail.inserted, room);

  // A refresh that would grow past the cap fails, keeps the entries it had and says why.
  feeds.set('/fits.ics', feedOf('Fits', room + 5));
  const grown = await runCommand(owner(team), team.teamUuid, 'updateexternalcalendar', {
    calendarRefName: fits.detail.refname,
  });
  assert.equal(grown.state, 'error');
  list = await owner(team).get<{ calendars: ExternalCalendar[] }>(`${base}/externalcalendars`);
  const fitsNow = list.body.calendars.find((c) => c.refname === fits.detail.refname);
  assert.equal(fitsNow?.entryCount, room);
  assert.match(fitsNow?.lastError ?? '', /would hold more than 50,000 entries/);
  assert.equal(
    list.body.calendars.reduce((sum, c) => sum + c.entryCount, 0),
    limits.importedEntriesPerTeam,
  );
});

const owner = (team: Awaited<ReturnType<typeof makeTeam>>) => team.owner.client;
