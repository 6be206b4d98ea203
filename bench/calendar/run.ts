// Calendar benchmark (issue 12, server half): a team with 20,000 entries over three years and
// 50,000 bookings; one month is loaded through the real route (POST /api/{team}/calendar/entries)
// as the owner (all bookings) and as a photographer (their own), and through the service.
// Baselines in the same run: `select 1` and GET /api/{team}/timezone (the same HTTP stack, session
// and team check, one trivial query). See ../README.md.
//
//   npx tsx bench/calendar/run.ts [--entries 20000] [--bookings 50000] [--runs 300] [--postgres URL]
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../../packages/server/src/config.ts';
import { hashPassword } from '../../packages/server/src/crypto/tokens.ts';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import { vacuumAnalyze } from '../../packages/server/src/db/maintenance.ts';
import * as accountQueries from '../../packages/server/src/modules/account/queries.ts';
import { listEntries } from '../../packages/server/src/modules/calendar/entries.ts';
import { clearMonthCache, monthCacheStats } from '../../packages/server/src/modules/calendar/month-cache.ts';
import {
  listPeople,
  listMonth as monthStatement,
  type Person,
} from '../../packages/server/src/modules/calendar/month-queries.ts';
import { dayStart, monthAfter } from '../../packages/server/src/modules/calendar/time.ts';
import * as teamQueries from '../../packages/server/src/modules/teams/queries.ts';
import { requireMember } from '../../packages/server/src/modules/teams/service.ts';
import { startPhotoRelay } from '../../packages/server/src/runtime.ts';
import { TestClient } from '../../packages/server/test/support/client.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    entries: { type: 'string', default: '20000' },
    bookings: { type: 'string', default: '50000' },
    photographers: { type: 'string', default: '60' },
    runs: { type: 'string', default: '300' },
    postgres: { type: 'string' },
  },
});
const entryCount = Number(opts.entries);
const bookingCount = Number(opts.bookings);
const photographerCount = Number(opts.photographers);
const runs = Number(opts.runs);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function timed(count: number, warmup: number, run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

/** Two runs measured in turns (a, b, a, b, ...), so both see the same load. */
async function timedPair(
  count: number,
  warmup: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
) {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < warmup + count; i++)
    for (const [k, run] of [a, b].entries()) {
      const started = performance.now();
      await run();
      if (i >= warmup) times[k as 0 | 1].push(performance.now() - started);
    }
  return times;
}

/** CPU ms of this process's children (the PGlite process) so far, from /proc (Linux; else NaN). */
function childrenCpuMs(): number {
  try {
    const children = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
    let ticks = 0;
    for (const pid of children.trim().split(/\s+/).filter(Boolean)) {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    }
    return ticks * 10; // USER_HZ 100
  } catch {
    return Number.NaN;
  }
}
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// A deterministic generator (mulberry32), so every run seeds the same calendar.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;

async function insertBatches(db: Db, table: 'calendar_entries' | 'bookings', rows: object[]) {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const inserted = await db
      .insertInto(table)
      .values(rows.slice(i, i + 1000) as never)
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/** Entries spread over 2025-2027 (most in the afternoon and evening), and bookings on them. */
async function seedCalendar(db: Db, teamId: number, calendarId: number, userIds: number[]) {
  const from = Date.UTC(2025, 0, 1);
  const span = Date.UTC(2028, 0, 1) - from;
  const scenes = ['Bundesliga', '2. Bundesliga', 'DFB-Pokal', 'Pressekonferenz', 'Landtag', 'Wahl'];
  const entries = Array.from({ length: entryCount }, (_, i) => {
    const day = Math.floor((random() * span) / 86_400_000) * 86_400_000;
    const start = new Date(
      from + day + (10 + Math.floor(random() * 11)) * 3_600_000 + (random() < 0.5 ? 0 : 1_800_000),
    );
    return {
      team_id: teamId,
      calendar_id: calendarId,
      start_at: start,
      end_at: new Date(start.getTime() + 2 * 3_600_000),
      summary: `Team ${i % 97} - Team ${(i * 7) % 89}`,
      category: 'sport',
      subcategory: 'football',
      scene: pick(scenes),
      location: `Stadion ${i % 50}`,
      city: 'München',
      country: 'Deutschland',
      team1: `Team ${i % 97}`,
      team2: `Team ${(i * 7) % 89}`,
      urgency: 1 + (i % 8),
      flags: i % 131_072,
    };
  });
  const entryIds = await insertBatches(db, 'calendar_entries', entries);
  console.log(`  ${entryIds.length} entries in`);
  const states = ['unset', 'accepted', 'accepted', 'accepted', 'canceled', 'rejected'] as const;
  const accreditations = ['notaccredited', 'requested', 'processing', 'accredited', 'permanently'] as const;
  const bookings: object[] = [];
  const taken = new Set<string>();
  while (bookings.length < bookingCount) {
    const entry = pick(entryIds);
    const user = pick(userIds);
    const key = `${entry}:${user}`;
    if (taken.has(key)) continue;
    taken.add(key);
    bookings.push({
      team_id: teamId,
      entry_id: entry,
      user_id: user,
      state: pick(states),
      accreditation: pick(accreditations),
      suggested: 1 + Math.floor(random() * 3),
    });
  }
  await insertBatches(db, 'bookings', bookings);
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}`,
  );
  const data = await prepareData();
  console.log('database ready');
  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  let stopServer: (() => Promise<void>) | undefined;
  try {
    const { team } = data;
    const calendar = await db
      .selectFrom('calendars')
      .select(['id', 'folder_id'])
      .where('team_id', '=', team.teamId)
      .where('type', '=', 'default')
      .executeTakeFirstOrThrow();
    const password = 'correct horse battery';
    const passwordHash = await hashPassword(password);
    const group = await teamQueries.findGroupByName(db, team.teamId, 'Photographer');
    const userIds: number[] = [];
    const stamp = Date.now();
    for (let i = 0; i < photographerCount; i++) {
      const id = await accountQueries.insertUser(db, {
        email: `photographer-${stamp}-${i}@example.com`,
        passwordHash,
        firstName: 'Photo',
        lastName: `Grapher ${i}`,
        language: 'en',
        timezone: 'Europe/Berlin',
        verified: true,
      });
      await teamQueries.insertMember(db, team.teamId, id, group.id);
      await accountQueries.setCurrentTeam(db, id, team.teamId);
      userIds.push(id);
    }
    // The photographers may read the calendars folder (else they see only 'My bookings').
    await db
      .insertInto('folder_permissions')
      .values({
        team_id: team.teamId,
        folder_id: calendar.folder_id,
        group_id: group.id,
        user_id: null,
        permissions: ['read'],
      })
      .execute();
    const seeded = performance.now();
    await seedCalendar(db, team.teamId, calendar.id, userIds);
    // What the server runs on its embedded database a minute after start and then hourly
    // (db/maintenance.ts): statistics, and a visibility map that lets counts skip the heap.
    await vacuumAnalyze(db);
    console.log(
      `seeded ${entryCount} entries and ${bookingCount} bookings in ${fmt((performance.now() - seeded) / 1000)} s`,
    );

    const config = loadConfig({
      PORT: '1',
      HOST: '127.0.0.1',
      DATA_DIR: data.dataDir,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
    });
    config.PORT = 0;
    const running = await startPhotoRelay(config, { role: 'web', db, log: pino({ level: 'warn' }) });
    stopServer = () => running.stop();
    const url = running.url as string;
    const login = async (email: string) => {
      const client = new TestClient(url);
      const res = await client.post('/api/user/login', { email, password });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
      return client;
    };
    const ownerHttp = await login(team.email);
    const photographerHttp = await login(`photographer-${stamp}-0@example.com`);
    const ownerUser = await accountQueries.findUserByEmail(db, team.email);
    if (!ownerUser) throw new Error('owner missing');
    const owner = await requireMember(db, team.teamUuid, ownerUser.id);
    const month = { calendarIds: [calendar.id], startDate: '2026-03-01' };
    const base = `/api/${team.teamUuid}`;

    const listMonth = (client: TestClient) => async () => {
      const res = await client.post<{ entries: Array<{ bookings: unknown[] }>; total: number }>(
        `${base}/calendar/entries`,
        month,
      );
      if (res.status !== 200) throw new Error(`entries: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const results: Array<[string, number[], string]> = [];
    results.push([
      'baseline: select 1 (one round trip)',
      await timed(runs, 10, () => sql`select 1`.execute(db)),
      '',
    ]);
    results.push([
      'baseline: GET /api/{team}/timezone',
      await timed(runs, 10, async () => {
        const res = await ownerHttp.get(`${base}/timezone`);
        if (res.status !== 200) throw new Error(`timezone: ${res.status}`);
      }),
      'session, team check, one query',
    ]);
    // The listing's database work: the month statement for a page of 200 when the caller holds
    // none of its entries (all read in full, as the previous builds always did) against one that
    // holds all of them at their current versions (only ids and versions come back).
    const from = dayStart(month.startDate, 'Europe/Berlin');
    const to = monthAfter(from, 'Europe/Berlin');
    const range = {
      teamId: team.teamId,
      calendarIds: [calendar.id],
      from,
      to,
      page: { offset: 0, limit: 200 },
    };
    const none = { ids: [], versions: [], shared: [] };
    // The booked people's names as a cold cache reads them: the team's members with the statement.
    const people = {
      lookup: async (_shared: number, ids: Set<number>, members?: ReadonlyMap<number, Person>) =>
        members ?? listPeople(db, team.teamId, [...ids]),
    };
    const current = await monthStatement(db, range, none, people);
    const all = {
      ids: current.page.map((e) => e.id),
      versions: current.page.map((e) => e.version),
      shared: current.page.map(() => current.shared),
    };
    const [coldStatement, warmStatement] = await timedPair(
      runs,
      10,
      () => monthStatement(db, range, none, people),
      () => monthStatement(db, range, all, people),
    );
    results.push(['listMonth: a page of 200, none held', coldStatement, 'in turns with the line below']);
    results.push(['listMonth: the same page, all held', warmStatement, 'ids and versions, total']);
    results.push([
      'listEntries(owner), the service (cached entries)',
      await timed(runs, 10, () => listEntries(running.ctx, owner, month)),
      '',
    ]);
    // The server's own time per request: from Node's 'request' event (headers read) to the answer
    // handed to the socket ('finish'), without the client's fetch and JSON parse (same process).
    const serverTimes: number[] = [];
    running.app?.server.on('request', (_req: unknown, res: import('node:http').ServerResponse) => {
      const started = performance.now();
      res.on('finish', () => serverTimes.push(performance.now() - started));
    });
    const onServer = async (run: () => Promise<number[]>) => {
      serverTimes.length = 0;
      const client = await run();
      return [client, serverTimes.splice(0).slice(-client.length)] as const;
    };
    const shapeOf = async (client: TestClient) => {
      const body = await listMonth(client)();
      const bookings = body.entries.reduce((n, e) => n + e.bookings.length, 0);
      const kb = (JSON.stringify(body).length / 1024).toFixed(0);
      return `${body.entries.length} of ${body.total} entries, ${bookings} bookings, ${kb} KB`;
    };
    const [zoneTimes, zoneServer] = await onServer(() =>
      timed(runs, 10, () => ownerHttp.get(`${base}/timezone`)),
    );
    results.push(['baseline: GET /api/{team}/timezone, again', zoneTimes, 'round trip']);
    results.push(['  the same on the server', zoneServer, 'request event -> answer written']);
    const [ownerTimes, ownerServer] = await onServer(() => timed(runs, 10, listMonth(ownerHttp)));
    results.push([
      'POST /api/{team}/calendar/entries, owner',
      ownerTimes,
      `round trip; ${await shapeOf(ownerHttp)}`,
    ]);
    results.push(['  the same on the server', ownerServer, '']);
    const [photographerTimes, photographerServer] = await onServer(() =>
      timed(runs, 10, listMonth(photographerHttp)),
    );
    results.push([
      'POST /api/{team}/calendar/entries, photographer',
      photographerTimes,
      `round trip; ${await shapeOf(photographerHttp)} (own)`,
    ]);
    results.push(['  the same on the server', photographerServer, '']);
    // The entry cache answers the lines above from memory while nothing changed. In turns: the
    // first load after a change (a trivial update of one of the month's bookings, untimed: it
    // advances that entry's version), a cold load (the cache emptied, untimed: every entry is read
    // and presented, as after a restart or for a month nobody opened), and a load with nothing changed.
    const changed = await db
      .selectFrom('bookings as b')
      .innerJoin('calendar_entries as e', 'e.id', 'b.entry_id')
      .select('b.id')
      .where('e.id', 'in', all.ids)
      .executeTakeFirstOrThrow();
    const touch = () =>
      db.updateTable('bookings').set({ suggested: sql`suggested` }).where('id', '=', changed.id).execute();
    const kinds = ['after a change', 'cold', 'unchanged'] as const;
    const server = kinds.map(() => [] as number[]);
    const roundTrips = kinds.map(() => [] as number[]);
    // CPU per call and kind: [PGlite process, bench process (server and client)].
    const cpu = kinds.map(() => [0, 0]);
    const statsBefore = monthCacheStats(db);
    for (let i = 0; i < runs + 10; i++)
      for (const [k, kind] of kinds.entries()) {
        if (kind === 'after a change') await touch();
        if (kind === 'cold') clearMonthCache(db);
        serverTimes.length = 0;
        const [db0, own0] = [childrenCpuMs(), ownCpuMs()];
        const started = performance.now();
        await listMonth(ownerHttp)();
        const elapsed = performance.now() - started;
        if (i < 10) continue;
        (cpu[k] as number[])[0] += childrenCpuMs() - db0;
        (cpu[k] as number[])[1] += ownCpuMs() - own0;
        roundTrips[k]?.push(elapsed);
        server[k]?.push(serverTimes.at(-1) ?? Number.NaN);
      }
    const statsAfter = monthCacheStats(db);
    const cacheNote = `cache ${statsAfter.hits - statsBefore.hits} entries hit, ${statsAfter.misses - statsBefore.misses} read`;
    for (const [k, kind] of kinds.entries()) {
      results.push([
        `owner, ${kind}`,
        roundTrips[k] as number[],
        k === 0 ? `round trip; the three in turns` : 'round trip',
      ]);
      results.push(['  the same on the server', server[k] as number[], k === 0 ? cacheNote : '']);
    }

    const perCall = (k: number) => cpu[k]?.map((ms) => fmt(ms / runs)).join(' ms / ');
    console.log(
      `CPU per owner month, ${opts.postgres ? 'PostgreSQL is not counted' : 'PGlite process'} / bench process: ${kinds.map((kind, k) => `${kind} ${perCall(k)} ms`).join(', ')}`,
    );
    const rows = [
      ['measure', 'runs', 'median ms', 'p95 ms', 'p99 ms', ''],
      ...results.map(([name, times, note]) => [
        name,
        String(times.length),
        fmt(percentile(times, 50)),
        fmt(percentile(times, 95)),
        fmt(percentile(times, 99)),
        note,
      ]),
    ];
    const widths = [0, 1, 2, 3, 4, 5].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
    for (const row of rows)
      console.log(
        row
          .map((c, i) => (i > 0 && i < 5 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd(),
      );
    const p99 = Math.max(percentile(ownerServer, 99), percentile(photographerServer, 99));
    const roundTrip = Math.max(percentile(ownerTimes, 99), percentile(photographerTimes, 99));
    const [afterChange, cold] = [server[0] as number[], server[1] as number[]];
    // Two lines: the loads a planner makes all day (the entries are cached: unchanged, or one of
    // them changed), and a cold month (every entry read and presented: after a restart, or a
    // month nobody opened since).
    const warm = Math.max(p99, percentile(afterChange, 99));
    const verdict = (ms: number) => (ms < 20 ? 'met' : 'NOT met');
    console.log(
      `\ngoal: one month < 20 ms at p99 on the server (load ${os.loadavg()[0]?.toFixed(1)})\n  repeated loads ${fmt(p99)} ms (round trip ${fmt(roundTrip)} ms), first load after a change ${fmt(percentile(afterChange, 99))} ms -> ${verdict(warm)}\n  cold month ${fmt(percentile(cold, 99))} ms (median ${fmt(percentile(cold, 50))} ms) -> ${verdict(percentile(cold, 99))}`,
    );
  } finally {
    await stopServer?.();
    await db.destroy();
    await data.remove();
  }
}

await main();
