// Issue 25 item 2: a 60,000-event feed froze the server's event loop for 12.8 s while it was
// imported (ical.js parsed and expanded on the main thread). This records the server's worst
// event-loop delay and its slowest /api/health answer during a 60,000-event import, beside the
// baseline measured in the same run: the old path's main-thread work (the whole feed parsed and
// expanded by ical.js on this thread, a turn of the event loop every 200 occurrences, as the
// import did before the reader thread). Goal: worst delay < 100 ms. Of the 60,000 events the
// team's cap (50,000) lie in the import range and are stored, the rest lie before it.
//
//   npx tsx bench/calendar-import/loop-delay.ts [--events 60000] [--runs 3] [--postgres URL]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { limits } from '@photorelay/contract/limits';
import { readIcs } from '../../packages/server/src/adapters/ics/parse.ts';
import {
  createExternalCalendar,
  deleteExternalCalendar,
  importRange,
} from '../../packages/server/src/modules/externalcalendars/service.ts';
import { memberForCommand } from '../../packages/server/src/modules/teams/service.ts';
import { makeTeam } from '../../packages/server/test/support/factories.ts';
import { startTestServer } from '../../packages/server/test/support/server.ts';

const { values: opts } = parseArgs({
  options: {
    events: { type: 'string', default: '60000' },
    runs: { type: 'string', default: '3' },
    postgres: { type: 'string' },
  },
});
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

/**
 * `count` plain events, one an hour from tomorrow on; all but the team's cap of them three years
 * back (read, but before the import range: a team stores at most limits.importedEntriesPerTeam).
 */
function plainFeed(count: number): string {
  const tomorrow = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 86_400_000;
  const stored = Math.min(count, limits.importedEntriesPerTeam);
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');
  const lines = ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//plain//EN\r\nX-WR-CALNAME:Plain\r\n'];
  for (let i = 0; i < count; i++) {
    const first = i < stored ? tomorrow : tomorrow - 3 * 365 * 86_400_000;
    const start = first + (i % 17_000) * 3_600_000 + Math.floor(i / 17_000) * 60_000;
    lines.push(
      `BEGIN:VEVENT\r\nUID:plain-${i}@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${stamp(start)}\r\nDURATION:PT1H\r\nSUMMARY:Match ${i}\r\nLOCATION:Stadium ${i % 40}\r\nEND:VEVENT\r\n`,
    );
  }
  lines.push('END:VCALENDAR\r\n');
  return lines.join('');
}

const feed = plainFeed(Number(opts.events));
const feedServer = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed);
});
await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/plain.ics`;

const server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' }, { role: 'web' });
const ctx = server.running.ctx;
const team = await makeTeam(server);
const member = await memberForCommand(ctx.db, { teamId: team.teamId, userId: team.owner.userId });
const client = server.client();

/** Worst event-loop delay (ms) and slowest /api/health answer (ms, asked every 50 ms) during `work`. */
async function watch<T>(work: () => Promise<T>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let slowestHealth = 0;
  let watching = true;
  const probe = (async () => {
    while (watching) {
      const started = performance.now();
      await client.get('/api/health');
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  histogram.enable();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  histogram.disable();
  watching = false;
  await probe;
  return { result, ms, worstMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, slowestHealth };
}

/** The old import's work on this thread: parse in one go, expand with a turn every 200 occurrences. */
async function mainThreadPath() {
  const reader = readIcs(feed, { ...importRange(), defaultZone: 'Europe/Berlin', maxEvents: 100_000 });
  let n = 0;
  for (const _event of reader.events) {
    if (++n % 200 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return n;
}

const fmt = (m: { ms: number; worstMs: number; p99Ms: number; slowestHealth: number }) =>
  `${m.ms.toFixed(0)} ms, worst loop delay ${m.worstMs.toFixed(0)} ms (p99 ${m.p99Ms.toFixed(0)}), slowest /api/health ${m.slowestHealth.toFixed(0)} ms`;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(`feed: ${opts.events} plain events, ${(feed.length / 1048576).toFixed(1)} MB; load ${load()}`);
const worst = { baseline: [] as number[], thread: [] as number[], health: [] as number[] };
for (let run = 1; run <= Number(opts.runs); run++) {
  const baseline = await watch(mainThreadPath);
  const imported = await watch(() => createExternalCalendar(ctx, member, url));
  console.log(
    `run ${run}: baseline (main thread, ${baseline.result} occurrences) ${fmt(baseline)}; ` +
      `import on the reader thread (${imported.result.inserted} stored) ${fmt(imported)}`,
  );
  worst.baseline.push(baseline.worstMs);
  worst.thread.push(imported.worstMs);
  worst.health.push(imported.slowestHealth);
  await deleteExternalCalendar(ctx, member, imported.result.dbcalendarid);
}
const most = (values: number[]) => Math.max(...values).toFixed(0);
console.log(
  `goal: worst event-loop delay during a ${opts.events}-event import < 100 ms: ${most(worst.thread)} ms ` +
    `(${worst.thread.map((v) => v.toFixed(0)).join(', ')}) ${Math.max(...worst.thread) < 100 ? 'met' : 'NOT met'}; ` +
    `baseline (main thread) ${most(worst.baseline)} ms; slowest /api/health during the import ${most(worst.health)} ms; load ${load()}`,
);
await server.stop();
feedServer.close();
