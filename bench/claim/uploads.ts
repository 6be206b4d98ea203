// How long a worker takes to lease its next upload to process (`claimUploadToProcess`) while many
// wait, next to the claim it replaced (the baseline, kept here as it was): strictly by id, which
// let one team's burst hold every processing slot (issue 25). The fair claim counts each team's
// uploads in processing, skips teams at their share and projects backing off, and orders by team.
//
//   npx tsx bench/claim/uploads.ts [--received 400,2000,5000] [--runs 50] [--postgres URL]
//
// Each backlog: `received` uploads of one team's project (the burst) plus one of another team;
// per query 3 warm-up claims, then `runs` claims timed one by one; the uploads are reset between.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import { claimUploadToProcess } from '../../packages/server/src/pipeline/queue.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    received: { type: 'string', default: '400,2000,5000' },
    runs: { type: 'string', default: '50' },
    postgres: { type: 'string' },
  },
});
const backlogs = opts.received.split(',').map(Number);
const runs = Number(opts.runs);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

/** The claim before issue 25: the oldest waiting upload, whoever's it is. */
async function claimById(db: Db, leaseSeconds: number) {
  const result = await sql<{ id: number }>`
    update uploads set state = 'processing', locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id = (
      select id from uploads
      where state = 'received' or (state = 'processing' and locked_until < now())
      order by id limit 1 for update skip locked
    )
    returning id
  `.execute(db);
  return result.rows[0];
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
const fmt = (ms: number) => ms.toFixed(2).padStart(8);

async function timeClaims(db: Db, teamIds: number[], claim: (db: Db) => Promise<unknown>): Promise<number> {
  await sql`update uploads set state = 'received', locked_until = null where team_id in (${sql.join(teamIds)})`.execute(
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
    const otherTeam = (
      await db.insertInto('teams').values({ name: 'Other team' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const project = (name: string, i: number, teamId: number) =>
      db
        .insertInto('projects')
        .values({
          team_id: teamId,
          folder_id: team.projectsRootId,
          name,
          ingest_username: `uploadclaimbench${team.teamId}x${i}`,
          ingest_password_enc: 'x',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const burst = await project('Burst', 1, team.teamId);
    // Its folder is the first team's: the claim reads only uploads.team_id.
    const other = await project('Other', 2, otherTeam);
    const teamIds = [team.teamId, otherTeam];

    console.log(`\nmedian of ${runs} claims, ms per claim`);
    console.log('received   claimUploadToProcess (fair)   baseline: by id (before issue 25)');
    for (const received of backlogs) {
      await sql`delete from uploads where team_id in (${sql.join(teamIds)})`.execute(db);
      await sql`
        insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, state, protocol, chain, received_at)
        select case when g % 100 = 0 then ${otherTeam}::int else ${team.teamId}::int end,
               case when g % 100 = 0 then ${other.id}::int else ${burst.id}::int end,
               'IMG_' || g || '.JPG', 'IMG_' || g || '.JPG', 5000000, md5(g::text), 'k', 'received', 'ftp', '{}'::int[], now()
        from generate_series(1, ${received}) g`.execute(db);
      const fair = await timeClaims(db, teamIds, (d) => claimUploadToProcess(d, 60));
      const byId = await timeClaims(db, teamIds, (d) => claimById(d, 60));
      console.log(`${String(received).padStart(8)}   ${fmt(fair)}${' '.repeat(21)}   ${fmt(byId)}`);
    }
    await sql`delete from uploads where team_id in (${sql.join(teamIds)})`.execute(db);
  } finally {
    await db.destroy();
    await data.remove();
  }
}

await main();
