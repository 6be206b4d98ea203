// Issue 28: the job log one picture a row (`listPictures`: a page, its count, its deliveries and
// tries, the failing destinations) at 100,000 jobs, filtered several ways, against the same call
// of an older build (`--base`, default `main`) on the same data in the same run, and against the
// job page it replaced as the protocol's default (`listJobs`, one job a row, no filter).
//
//   npx tsx bench/job-log/run.ts [--jobs 100000] [--runs 30] [--postgres URL] [--base REF] [--explain]
//
// One project (the worst case for a project's log: every job is its own) with three FTP servers;
// per picture three jobs. 1 % of the pictures were stopped by a script (all three failed), 2 %
// wait for a retry to Client FTP, 2.5 % failed there for good; the rest delivered. Pictures over
// the last 30 days. The base build runs from a throwaway git worktree of REF, without the indexes
// this build's migrations added since (they are dropped for its turns and made again for ours);
// the builds take turns, old, new, old, new, each with half the runs of every case. Per case and
// turn 2 warm-up calls; median and p90 of all timed calls. `--explain` prints EXPLAIN ANALYZE of
// this build's statements, one call per case.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PictureFilter } from '@photorelay/contract/jobs';
import { type CompiledQuery, sql } from 'kysely';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import * as jobs from '../../packages/server/src/modules/jobs/service.ts';
import type { Member } from '../../packages/server/src/modules/teams/service.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    jobs: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '30' },
    postgres: { type: 'string' },
    base: { type: 'string', default: 'main' },
    explain: { type: 'boolean', default: false },
  },
});
const jobCount = Number(opts.jobs);
const runs = Number(opts.runs);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

/** Times `count` calls after 2 warm-up calls, into `times`. */
async function timeInto(times: number[], count: number, call: () => Promise<unknown>) {
  for (let i = 0; i < 2; i++) await call();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
}
const summary = (times: number[]) => `${fmt(quantile(times, 0.5))} (${fmt(quantile(times, 0.9)).trim()})`;

/** The base build's jobs service, from a throwaway worktree of `ref` sharing our node_modules. */
function checkOutBase(ref: string) {
  const root = path.resolve(import.meta.dirname, '../..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'joblog-base-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: root, stdio: 'ignore' });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root }).toString().trim();
  return {
    dir,
    commit,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' }),
  };
}

/** Indexes this build's migrations added that the base build lacks, dropped for its turns. */
const newIndexes = [
  {
    name: 'uploads_filename_trgm',
    create: sql`create index uploads_filename_trgm on uploads using gin (filename gin_trgm_ops)`,
  },
];

/** `db` whose raw statements print their EXPLAIN ANALYZE instead of answering (rows empty). */
function explaining(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      // Bound to the real object: Kysely keeps its state in private fields a proxy cannot read.
      const own = Reflect.get(target, prop, target);
      if (prop !== 'getExecutor') return typeof own === 'function' ? own.bind(target) : own;
      return () => {
        const executor = target.getExecutor();
        return new Proxy(executor, {
          get(ex, name) {
            const value = Reflect.get(ex, name, ex);
            if (name !== 'executeQuery') return typeof value === 'function' ? value.bind(ex) : value;
            return async (query: CompiledQuery) => {
              const plan = await ex.executeQuery<{ 'QUERY PLAN': string }>({
                ...query,
                sql: `explain (analyze, costs off) ${query.sql}`,
              });
              console.log(`  ${query.sql.replace(/\s+/g, ' ').slice(0, 160)}…`);
              for (const row of plan.rows) console.log(`    ${row['QUERY PLAN']}`);
              return { rows: [] };
            };
          },
        });
      };
    },
  });
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}`,
  );
  const data = await prepareData();
  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  try {
    const { team } = data;
    const owner = await db
      .selectFrom('team_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .select(['m.user_id', 'm.group_id', 'g.name', 'g.has_all_permissions'])
      .where('m.team_id', '=', team.teamId)
      .executeTakeFirstOrThrow();
    const member: Member = {
      teamId: team.teamId,
      teamUuid: team.teamUuid,
      teamName: 'Bench',
      teamReady: true,
      teamTimeZone: 'Europe/Berlin',
      userId: owner.user_id,
      groupId: owner.group_id,
      groupName: owner.name,
      hasAllPermissions: owner.has_all_permissions,
    };
    const project = await db
      .insertInto('projects')
      .values({
        team_id: team.teamId,
        folder_id: team.projectsRootId,
        name: 'Derby day',
        ingest_username: `joblogbench${team.teamId}`,
        ingest_password_enc: 'x',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const servers: number[] = [];
    for (const name of ['Agency FTP', 'Archive FTP', 'Client FTP']) {
      const s = await db
        .insertInto('ftp_servers')
        .values({
          team_id: team.teamId,
          folder_id: team.ftpserversRootId,
          name,
          host: 'ftp.example.com',
          username: 'user',
          password_enc: 'x',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      servers.push(s.id);
      await db
        .insertInto('project_ftp_servers')
        .values({ project_id: project.id, ftp_server_id: s.id, path: null })
        .execute();
    }
    const pictures = Math.ceil(jobCount / 3);
    const seeded = performance.now();
    await sql`
      insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, processed_blob_key,
                           processed_size, state, protocol, chain, received_at)
      select ${team.teamId}, ${project.id}, 'IMG_' || g || '.JPG', 'IMG_' || g || '.JPG', 5000000, md5(g::text), 'k', 'k',
             5000000, case when g % 100 = 0 then 'failed' else 'processed' end, 'ftp', '{}'::int[],
             now() - make_interval(secs => (${pictures} - g) * (30 * 86400.0 / ${pictures}))
      from generate_series(1, ${pictures}) g`.execute(db);
    await sql`
      insert into jobs (team_id, upload_id, project_id, ftp_server_id, ftpservername, state, scheduletime, createtime,
                        trynumber, errortext, finished_at)
      select u.team_id, u.id, u.project_id, s.id, s.name,
             case when u.state = 'failed' then 'failed'
                  when s.name = 'Client FTP' and u.id % 50 = 1 then 'scheduled'
                  when s.name = 'Client FTP' and u.id % 40 = 2 then 'failed'
                  else 'succeeded' end,
             u.received_at + interval '1 minute', u.received_at,
             case when s.name = 'Client FTP' and (u.id % 50 = 1 or u.id % 40 = 2) then 3 else 0 end,
             case when u.state = 'failed' then 'Script error: caption.script 2:5: cannot read property ''boom'' of null'
                  when s.name = 'Client FTP' and (u.id % 50 = 1 or u.id % 40 = 2) then '530 Login incorrect.'
                  else null end,
             case when s.name = 'Client FTP' and u.id % 50 = 1 then null else u.received_at + interval '1 minute' end
      from uploads u cross join ftp_servers s
      where u.project_id = ${project.id} and s.id = any(${servers}::integer[])`.execute(db);
    await sql`analyze`.execute(db);
    const total = await db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    console.log(
      `seeded ${pictures} pictures, ${total.n} jobs in ${((performance.now() - seeded) / 1000).toFixed(0)} s; median (p90) of ${runs} calls per build, ms, 25 rows a page`,
    );

    const day = new Date(Date.now() - 3 * 86_400_000);
    const cases: Array<[string, PictureFilter, number]> = [
      ['no filter, page 1', {}, 0],
      ['no filter, page 400', {}, 399],
      ['state failed', { state: 'failed' }, 0],
      ['state retrying', { state: 'retrying' }, 0],
      ['failed to Client FTP', { state: 'failed', destination: 'Client FTP' }, 0],
      ['delivered to Agency FTP', { state: 'delivered', destination: 'Agency FTP' }, 0],
      ['file name search "IMG_1234"', { search: 'IMG_1234' }, 0],
      [
        'one day (3 days ago)',
        { from: day.toISOString(), to: new Date(day.getTime() + 86_400_000).toISOString() },
        0,
      ],
      ['failed, one day, search "IMG_2"', { state: 'failed', search: 'IMG_2', from: day.toISOString() }, 0],
    ];
    if (opts.explain) {
      const explainDb = explaining(db);
      for (const [name, filter, page] of cases) {
        console.log(`\n== ${name}`);
        await jobs.listPictures(explainDb, member, { projectid: project.id, ...filter }, 25, page);
      }
      console.log();
    }

    const base = checkOutBase(opts.base ?? 'main');
    try {
      const old: typeof jobs = await import(
        path.join(base.dir, 'packages/server/src/modules/jobs/service.ts')
      );
      const builds = [
        { label: `base ${base.commit}`, service: old, indexes: false },
        { label: 'this build', service: jobs, indexes: true },
      ];
      const times = new Map<string, number[]>();
      const perTurn = Math.max(1, Math.ceil(runs / 2));
      for (let turn = 0; turn < 4; turn++) {
        const build = builds[turn % 2];
        if (!build) continue;
        for (const index of newIndexes) {
          await sql`drop index if exists ${sql.ref(index.name)}`.execute(db);
          if (build.indexes) await index.create.execute(db);
        }
        const listJobsTimes = times.get(`listJobs ${build.label}`) ?? [];
        times.set(`listJobs ${build.label}`, listJobsTimes);
        await timeInto(listJobsTimes, perTurn, () => build.service.listJobs(db, member, project.id, 25, 0));
        for (const [name, filter, page] of cases) {
          const key = `${name} ${build.label}`;
          const list = times.get(key) ?? [];
          times.set(key, list);
          await timeInto(list, perTurn, () =>
            build.service.listPictures(db, member, { projectid: project.id, ...filter }, 25, page),
          );
        }
        console.log(`turn ${turn + 1} of 4 (${build.label}) done, load ${os.loadavg()[0]?.toFixed(1)}`);
      }
      const [oldBuild, newBuild] = builds.map((b) => b.label);
      console.log(`\n${'case'.padEnd(34)} ${'this build'.padEnd(18)} ${oldBuild}`);
      const row = (name: string, key: string) =>
        console.log(
          `${name.padEnd(34)} ${summary(times.get(`${key} ${newBuild}`) ?? []).padEnd(18)} ${summary(times.get(`${key} ${oldBuild}`) ?? [])}`,
        );
      row('listJobs page 1 (old protocol page)', 'listJobs');
      for (const [name] of cases) row(name, name);
    } finally {
      base.remove();
    }
  } finally {
    await db.destroy();
    await data.remove();
  }
}

await main();
