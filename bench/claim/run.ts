// How long a worker takes to lease its next delivery (`claimJob`) while many jobs are due, next
// to the claim it replaced (the baseline, kept here as it was): the same fair order and limits,
// found by reading every due job (session 3) instead of each project's oldest one.
//
//   npx tsx bench/claim/run.ts [--due 400,2000,5000] [--projects 5] [--runs 50] [--postgres URL]
//
// Each backlog: `due` processed uploads spread over `projects` projects of one team, one job each
// to one FTP server, all due. Per query: 3 warm-up claims, then `runs` claims timed one by one;
// the jobs are reset to due between the two queries.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import { claimJob } from '../../packages/server/src/pipeline/queue.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    due: { type: 'string', default: '400,2000,5000' },
    projects: { type: 'string', default: '5' },
    runs: { type: 'string', default: '50' },
    postgres: { type: 'string' },
  },
});
const backlogs = opts.due.split(',').map(Number);
const projectCount = Number(opts.projects);
const runs = Number(opts.runs);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

/**
 * The fair claim of session 3: the same order and limits as claimJob, found by reading every due
 * job (a scan, a join with uploads and a sort) instead of each project's oldest one.
 */
async function claimFairByScan(db: Db, workerId: string, leaseSeconds: number) {
  const result = await sql<{ id: number }>`
    with running as (
      select project_id, ftp_server_id from jobs where state = 'running' and locked_until >= now()
    ), by_project as (
      select project_id, count(*) as n from running group by project_id
    ), by_server as (
      select ftp_server_id, count(*) as n from running where ftp_server_id is not null group by ftp_server_id
    ), next as (
      select j.id from jobs j
      join uploads u on u.id = j.upload_id
      left join ftp_servers s on s.id = j.ftp_server_id
      left join by_project bp on bp.project_id = j.project_id
      left join by_server bs on bs.ftp_server_id = j.ftp_server_id
      where u.state = 'processed'
        and ((j.state = 'scheduled' and j.scheduletime <= now()) or (j.state = 'running' and j.locked_until < now()))
        and (s.id is null or coalesce(bs.n, 0) < s.max_connections)
      order by coalesce(bp.n, 0), j.scheduletime, j.id
      limit 1 for update of j skip locked
    )
    update jobs j set state = 'running', locked_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = ${workerId}
    from next, uploads u
    where j.id = next.id and u.id = j.upload_id
    returning j.id
  `.execute(db);
  return result.rows[0];
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
const fmt = (ms: number) => ms.toFixed(2).padStart(8);

async function seedBacklog(db: Db, teamId: number, projectIds: number[], serverId: number, due: number) {
  await sql`delete from uploads where team_id = ${teamId}`.execute(db);
  await sql`
    insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, processed_blob_key,
                         processed_size, processed_sha256, state, protocol, chain, received_at)
    select ${teamId}, (${sql.raw(`array[${projectIds.join(',')}]`)})[1 + g % ${projectIds.length}],
           'IMG_' || g || '.JPG', 'IMG_' || g || '.JPG', 5000000, md5(g::text), 'k', 'k', 5000000, md5(g::text),
           'processed', 'ftp', '{}'::int[], now()
    from generate_series(1, ${due}) g`.execute(db);
  await sql`
    insert into jobs (team_id, upload_id, project_id, ftp_server_id, state, scheduletime, trynumber)
    select team_id, id, project_id, ${serverId}, 'scheduled', now() - interval '1 hour', 0
    from uploads where team_id = ${teamId}`.execute(db);
}

async function timeClaims(db: Db, teamId: number, claim: (db: Db) => Promise<unknown>): Promise<number> {
  await sql`update jobs set state = 'scheduled', locked_until = null, locked_by = null where team_id = ${teamId}`.execute(
    db,
  );
  for (let i = 0; i < 3; i++) await claim(db);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    if (!(await claim(db))) throw new Error('the backlog ran dry');
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}`,
  );
  const data = await prepareData();
  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  try {
    const { team } = data;
    const projectIds = (
      await db
        .insertInto('projects')
        .values(
          Array.from({ length: projectCount }, (_, i) => ({
            team_id: team.teamId,
            folder_id: team.projectsRootId,
            name: `Game ${i + 1}`,
            ingest_username: `claimbench${team.teamId}x${i}`,
            ingest_password_enc: 'x',
          })),
        )
        .returning('id')
        .execute()
    ).map((r) => r.id);
    const server = await db
      .insertInto('ftp_servers')
      .values({
        team_id: team.teamId,
        folder_id: team.ftpserversRootId,
        name: 'Agency',
        host: 'ftp.example.com',
        username: 'user',
        password_enc: 'x',
        max_connections: 1000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    console.log(`\n${projectCount} projects, one FTP server, median of ${runs} claims, ms per claim`);
    console.log('jobs due   claimJob (fair, per project)   baseline: fair by a scan (session 3)');
    for (const due of backlogs) {
      await seedBacklog(db, team.teamId, projectIds, server.id, due);
      const fair = await timeClaims(db, team.teamId, (d) => claimJob(d, 'bench', 60));
      const scan = await timeClaims(db, team.teamId, (d) => claimFairByScan(d, 'bench', 60));
      console.log(`${String(due).padStart(8)}   ${fmt(fair)}${' '.repeat(22)}   ${fmt(scan)}`);
    }
  } finally {
    await db.destroy();
    await data.remove();
  }
}

await main();
