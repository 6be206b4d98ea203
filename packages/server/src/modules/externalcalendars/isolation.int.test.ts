import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { TestClient } from '../../../test/support/client.ts';
import { type PreparedData, prepareData } from '../../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../../test/support/process.ts';

// Issue 25 items 1 and 2: a calendar URL whose rule never matches looped forever inside ical.js
// on the server's event loop (HTTP, FTP and SFTP stopped for every team, and the command runner
// fetched it again after a restart); eight MINUTELY series froze /api/health for 18 s. The
// server runs as a process of its own here, so a hang is the server's, not the test's.

const feeds = new Map<string, string>();
const fetches = new Map<string, number>();
let feedServer: http.Server;
let feedBase = '';
let data: PreparedData;
let server: ServerProcess;
let owner: TestClient;

const calendar = (events: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//hostile//EN\r\n${events}END:VCALENDAR\r\n`;
const series = (uid: string, rule: string) =>
  `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20200101T000000Z\r\nDURATION:PT1M\r\nRRULE:${rule}\r\nSUMMARY:${uid}\r\nEND:VEVENT\r\n`;

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
  data = await prepareData();
  server = await serverProcess({
    dataDir: data.dataDir,
    databaseUrl: data.databaseUrl,
    env: { ALLOW_PRIVATE_NETWORKS: '1' },
  });
  await server.start();
  owner = await server.login(data.team.email, data.team.password);
});

after(async () => {
  await server?.stop();
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
  await data?.remove();
});

/** Asks /api/health every 100 ms while `work` runs; the slowest answer (ms) and the peak RSS growth. */
async function whileWatching<T>(work: () => Promise<T>) {
  const rssBefore = server.rss();
  let slowest = 0;
  let peakRss = rssBefore;
  let watching = true;
  const probe = (async () => {
    while (watching) {
      const started = performance.now();
      const answered = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(15_000) })
        .then((res) => res.ok)
        .catch(() => false);
      slowest = Math.max(slowest, answered ? performance.now() - started : Number.POSITIVE_INFINITY);
      peakRss = Math.max(peakRss, server.rss());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    return { result: await work(), slowest: () => slowest, growth: () => peakRss - rssBefore };
  } finally {
    watching = false;
    await probe;
  }
}

async function importFeed(path: string) {
  const started = await owner.post<{ commandId: number; token: string }>(
    `/api/${data.team.teamUuid}/command/createexternalcalendar`,
    { calendarUrl: `${feedBase}${path}` },
  );
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const deadline = Date.now() + 90_000;
  for (;;) {
    // A hung server never answers: the poll gives up instead of waiting with it.
    const state = await Promise.race([
      owner.get<{ state: 'ok' | 'error' | null; detail: unknown }>(
        `/api/${data.team.teamUuid}/command/state/${started.body.commandId}/${started.body.token}`,
      ),
      new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(
                `the server stopped answering during the import of ${path}\n${server.output().slice(-3000)}`,
              ),
            ),
          20_000,
        ),
      ),
    ]);
    assert.equal(state.status, 200);
    if (state.body.state !== null) return { state: state.body.state, detail: state.body.detail };
    if (Date.now() > deadline)
      throw new Error(`the import of ${path} did not end within 90 s\n${server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

test('a rule that never matches ends as a plain error, once; the server answers throughout', async () => {
  feeds.set(
    '/never.ics',
    calendar(
      series('leap@hostile', 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31') +
        series('second@hostile', 'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30'),
    ),
  );
  const watched = await whileWatching(() => importFeed('/never.ics'));
  assert.equal(watched.result.state, 'error');
  assert.match(
    String(watched.result.detail),
    /repeats by a rule that never matches \(BYMONTH=2 has no day 31\)/,
  );
  assert.ok(watched.slowest() < 1000, `/api/health answered within ${Math.round(watched.slowest())} ms`);
  assert.ok(watched.growth() < 300 * 1024 * 1024, `memory grew by ${mb(watched.growth())} MB`);
  // No retry loop: the command stays failed and the feed is not fetched again.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.equal(fetches.get('/never.ics'), 1);
  const list = await owner.get<{ calendars: unknown[] }>(`/api/${data.team.teamUuid}/externalcalendars`);
  assert.equal(list.status, 200);
  assert.equal(list.body.calendars.length, 0, 'nothing was stored');
});

test('eight MINUTELY series from 2020 do not stall the server', async () => {
  feeds.set(
    '/minutely.ics',
    calendar(Array.from({ length: 8 }, (_, i) => series(`minute-${i}@hostile`, 'FREQ=MINUTELY')).join('')),
  );
  const watched = await whileWatching(() => importFeed('/minutely.ics'));
  // Either refused (over a budget) or stored within the caps: what matters is that it ends.
  assert.ok(
    watched.result.state === 'ok' || watched.result.state === 'error',
    JSON.stringify(watched.result),
  );
  assert.ok(watched.slowest() < 1000, `/api/health answered within ${Math.round(watched.slowest())} ms`);
  assert.ok(watched.growth() < 300 * 1024 * 1024, `memory grew by ${mb(watched.growth())} MB`);
  assert.equal(fetches.get('/minutely.ics'), 1);
});
