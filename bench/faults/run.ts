// Issue 29: what the crash-safety work costs.
// 1. The sweep of crash leftovers (orphan-sweep.ts) over a DATA_DIR of `blobs` stored files (one
//    in ten a spliced stamped blob, one in twenty an orphan), beside a bare walk of the same files
//    (readdir + lstat, no database): the floor any sweep of the disk pays.
// 2. Finishing a job: the new single statement (state, project counters and the try together)
//    beside the two statements it replaced (the same update, then the try's insert).
//
//   npx tsx bench/faults/run.ts [--blobs 10000] [--runs 300] [--postgres URL]
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import { createLocalBlobStore } from '../../packages/server/src/adapters/storage/blob-store.ts';
import type { AppContext } from '../../packages/server/src/context.ts';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import { sweepOrphanFiles } from '../../packages/server/src/pipeline/orphan-sweep.ts';
import { markJobSucceeded } from '../../packages/server/src/pipeline/queue.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    blobs: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '300' },
    postgres: { type: 'string' },
  },
});
const blobCount = Number(opts.blobs);
const runs = Number(opts.runs);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const fmt = (ms: number) => ms.toFixed(2).padStart(9);

/** readdir + lstat of every file under `root`: what walking the disk costs at least. */
async function bareWalk(root: string): Promise<number> {
  let files = 0;
  const walk = async (dir: string) => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(at);
      else {
        await fsp.lstat(at);
        files++;
      }
    }
  };
  await walk(root);
  return files;
}

async function seedProject(
  db: Db,
  team: { teamId: number; projectsRootId: number; ftpserversRootId: number },
) {
  const project = await db
    .insertInto('projects')
    .values({
      team_id: team.teamId,
      folder_id: team.projectsRootId,
      name: 'Bench',
      ingest_username: `faultsbench${team.teamId}`,
      ingest_password_enc: 'x',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const server = await db
    .insertInto('ftp_servers')
    .values({
      team_id: team.teamId,
      folder_id: team.ftpserversRootId,
      name: 'Agency',
      host: 'ftp.example.com',
      username: 'user',
      password_enc: 'x',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { projectId: project.id, serverId: server.id };
}

async function benchSweep(db: Db, dataDir: string, teamId: number, projectId: number) {
  const root = path.join(dataDir, 'files');
  const blobs = createLocalBlobStore(root);
  const rows: Array<{ blob: string; processed: string | null }> = [];
  let orphanFiles = 0;
  const started = performance.now();
  for (let i = 0; i < blobCount; i++) {
    const blob = await blobs.write(Readable.from([Buffer.alloc(2048, i % 251)]));
    // Every tenth upload stamped: its row names the received file and the spliced blob.
    const processed =
      i % 10 === 0
        ? (
            await blobs.withLocalFile(blob.key, (file) =>
              blobs.writeSpliced(Buffer.from('head'), { file, start: 2 }),
            )
          ).key
        : null;
    if (i % 20 === 0) orphanFiles += processed ? 3 : 1;
    else rows.push({ blob: blob.key, processed });
  }
  const orphans = blobCount / 20;
  for (let at = 0; at < rows.length; at += 1000)
    await db
      .insertInto('uploads')
      .values(
        rows.slice(at, at + 1000).map((row, i) => ({
          team_id: teamId,
          project_id: projectId,
          path: `IMG_${at + i}.JPG`,
          filename: `IMG_${at + i}.JPG`,
          size: 2048,
          sha256: 'x',
          blob_key: row.blob,
          processed_blob_key: row.processed,
          state: 'processed' as const,
          protocol: 'ftp',
          chain: [],
        })),
      )
      .execute();
  console.log(
    `seeded ${blobCount} blobs (${orphans} orphans, every tenth spliced) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const ctx = { db, blobs, log: pino({ level: 'silent' }) } as unknown as AppContext;
  await new Promise((r) => setTimeout(r, 1100)); // every file older than a second
  const files = (await bareWalk(root)) - 0;
  const walkMs: number[] = [];
  const idleMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    await bareWalk(root);
    walkMs.push(performance.now() - t);
    t = performance.now();
    await sweepOrphanFiles(ctx, 1); // nothing to remove after the first round
    idleMs.push(performance.now() - t);
  }
  console.log(
    `\n${files} files (${blobCount} blobs), ms, rounds 1 / 2 / 3 (round 1 of the sweep removes ${orphans} orphans)`,
  );
  console.log(`sweepOrphanFiles             ${idleMs.map(fmt).join(' ')}`);
  console.log(`baseline: bare walk (no db)  ${walkMs.map(fmt).join(' ')}`);
  const left = (await bareWalk(root)) - files;
  console.log(`files removed: ${-left} (expected ${orphanFiles})`);
}

/** The finish of session 28: the job's state, then its try, two statements. */
async function finishInTwo(db: Db, job: { id: number; projectId: number }) {
  await sql`
    with done as (
      update jobs set state = 'succeeded', uploadduration = 5, finished_at = now(),
        locked_until = null, errortext = null, detail = '{}'
      where id = ${job.id} and locked_by = 'bench' and state = 'running'
      returning id
    ), counted as (
      update projects set fileoutcount = fileoutcount + 1, bytessent = bytessent + 2048
      where id = ${job.projectId} and exists (select 1 from done)
    )
    select id from done`.execute(db);
  await db
    .insertInto('job_tries')
    .values({ job_id: job.id, started_at: new Date(), duration_ms: 5, bytes: 2048, error: null })
    .execute();
}

async function benchFinish(db: Db, teamId: number, projectId: number, serverId: number) {
  const jobs = await sql<{ id: number }>`
    insert into jobs (team_id, upload_id, project_id, ftp_server_id, state, scheduletime, trynumber, locked_by, locked_until)
    select team_id, id, project_id, ${serverId}, 'running', now(), 0, 'bench', now() + interval '1 hour'
    from uploads where team_id = ${teamId} order by id limit ${runs * 2 + 40}
    returning id`.execute(db);
  const ids = jobs.rows.map((r) => r.id);
  const one: number[] = [];
  const two: number[] = [];
  // In turns, so both see the same load; the first 20 of each are warm-up.
  for (let i = 0; i < runs + 20; i++) {
    const a = ids[2 * i] as number;
    const b = ids[2 * i + 1] as number;
    let t = performance.now();
    await markJobSucceeded(
      db,
      { id: a, projectId, processedSize: 2048 },
      'bench',
      5,
      {},
      {
        startedAt: new Date(),
        durationMs: 5,
        bytes: 2048,
        error: null,
      },
    );
    if (i >= 20) one.push(performance.now() - t);
    t = performance.now();
    await finishInTwo(db, { id: b, projectId });
    if (i >= 20) two.push(performance.now() - t);
  }
  console.log(`\nfinishing a job, ms per job (median / p95 / p99 of ${runs})`);
  console.log(
    `one statement (state + try)        ${fmt(quantile(one, 0.5))} ${fmt(quantile(one, 0.95))} ${fmt(quantile(one, 0.99))}`,
  );
  console.log(
    `baseline: two statements (before)  ${fmt(quantile(two, 0.5))} ${fmt(quantile(two, 0.95))} ${fmt(quantile(two, 0.99))}`,
  );
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} vCPU, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}`,
  );
  const data = await prepareData();
  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  try {
    const { projectId, serverId } = await seedProject(db, data.team);
    await benchSweep(db, data.dataDir, data.team.teamId, projectId);
    await benchFinish(db, data.team.teamId, projectId, serverId);
  } finally {
    await db.destroy();
    await data.remove();
    fs.rmSync(path.join(data.dataDir), { recursive: true, force: true });
  }
}

await main();
