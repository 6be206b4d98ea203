// Importing an external calendar (issue 13): a 10,000-event feed with recurrences (1,000 weekly
// series of 10 with an EXDATE and a moved occurrence: 18,000 occurrences) added by URL, then
// refreshed unchanged (answered 304 to our ETag, nothing parsed), then refreshed after a change.
// Goals: import < 5 s and < 150 MB extra memory; unchanged refresh < 1 s.
//
//   npx tsx bench/calendar-import/run.ts [--events 10000] [--runs 3] [--postgres URL]
//
// Time is wall time, CPU time of this process (the service, fetch and parse run here) and CPU
// time of the database process (PGlite runs in a child process; read from /proc, not shown for
// --postgres). Under load the wall time is the CPU time stretched by the machine's sharing; the
// two CPU times added are what the import costs. Peak extra memory: the highest RSS sampled
// every 5 ms during the import, minus the RSS before it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { bigFeed } from '../../packages/server/src/adapters/ics/fixtures/generate.ts';
import { parseIcs } from '../../packages/server/src/adapters/ics/parse.ts';
import {
  createExternalCalendar,
  deleteExternalCalendar,
  updateExternalCalendar,
} from '../../packages/server/src/modules/externalcalendars/service.ts';
import { memberForCommand } from '../../packages/server/src/modules/teams/service.ts';
import { makeTeam } from '../../packages/server/test/support/factories.ts';
import { startTestServer } from '../../packages/server/test/support/server.ts';

const { values: opts } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    postgres: { type: 'string' },
  },
});
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

let feed = bigFeed(Number(opts.events));
const feedServer = http.createServer((req, res) => {
  const etag = `"${createHash('sha1').update(feed).digest('hex')}"`;
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
  res.writeHead(200, { 'content-type': 'text/calendar', etag }).end(feed);
});
await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/league.ics`;

const server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' }, { role: 'web' });
const ctx = server.running.ctx;
const team = await makeTeam(server);
const member = await memberForCommand(ctx.db, { teamId: team.teamId, userId: team.owner.userId });

/** CPU milliseconds of this process's children (the PGlite host), from /proc. */
function childCpuMs(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after "(comm) ": state ppid ... utime (12th) stime (13th), in clock ticks (10 ms).
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(fields[1]) === process.pid) total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function measure<T>(work: () => Promise<T>) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const cpu = process.cpuUsage();
  const dbCpu = childCpuMs();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const used = process.cpuUsage(cpu);
  return {
    result,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    dbCpuMs: opts.postgres ? undefined : childCpuMs() - dbCpu,
    extraMb: (peak - rssBefore) / 1048576,
  };
}

const fmt = (m: { ms: number; cpuMs: number; dbCpuMs?: number; extraMb?: number }) =>
  `${m.ms.toFixed(0)} ms (CPU ${m.cpuMs.toFixed(0)} ms${m.dbCpuMs === undefined ? '' : ` + database ${m.dbCpuMs.toFixed(0)} ms`})` +
  `${m.extraMb === undefined ? '' : `, peak +${m.extraMb.toFixed(0)} MB`}`;

console.log(
  `feed: ${opts.events} events, ${(feed.length / 1048576).toFixed(1)} MB; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const results = { importMs: [] as number[], importMb: [] as number[], sameMs: [] as number[], all304: true };
for (let run = 1; run <= Number(opts.runs); run++) {
  const original = feed;
  const range = {
    from: new Date('2026-01-01T00:00:00Z'),
    to: new Date('2028-01-01T00:00:00Z'),
    defaultZone: 'Europe/Berlin',
  };
  const parsed = await measure(async () => parseIcs(feed, range));
  console.log(`run ${run}: parse only (${parsed.result.events.length} occurrences) ${fmt(parsed)}`);
  const add = await measure(() => createExternalCalendar(ctx, member, url));
  const same = await measure(() => updateExternalCalendar(ctx, member, add.result.refname));
  // A tenth of the matches move by an hour.
  feed = feed.replace(
    /(UID:match-\d*5@fixtures\.test\r\nDTSTAMP:\d+T\d+Z\r\nDTSTART;TZID=Europe\/Berlin:\d{8}T)(\d\d)/g,
    (_m, head: string, hour: string) => `${head}${String((Number(hour) + 1) % 24).padStart(2, '0')}`,
  );
  const changed = await measure(() => updateExternalCalendar(ctx, member, add.result.refname));
  console.log(
    `run ${run}: import ${add.result.inserted} occurrences ${fmt(add)}; unchanged refresh (304: ${same.result.notModified}) ${fmt(same)}; ` +
      `refresh with ${changed.result.updated} moved ${fmt(changed)}`,
  );
  results.importMs.push(add.ms);
  results.importMb.push(add.extraMb);
  results.sameMs.push(same.ms);
  results.all304 &&= same.result.notModified;
  await deleteExternalCalendar(ctx, member, add.result.dbcalendarid);
  feed = original;
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const importMs = median(results.importMs);
const peakMb = Math.max(...results.importMb);
const sameMs = median(results.sameMs);
console.log(
  `goal: import < 5 s: median ${importMs.toFixed(0)} ms (${results.importMs.map((m) => m.toFixed(0)).join(', ')}) ${verdict(importMs < 5000)}; ` +
    `< 150 MB extra: at most +${peakMb.toFixed(0)} MB ${verdict(peakMb < 150)}; ` +
    `unchanged refresh < 1 s answered 304 without parsing: median ${sameMs.toFixed(0)} ms, 304 ${results.all304 ? 'every time' : 'NOT every time'} ${verdict(sameMs < 1000 && results.all304)}; ` +
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
await server.stop();
feedServer.close();
