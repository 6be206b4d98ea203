import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { type OpenSshd, startOpenSshd } from '../../test/support/openssh.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { purgeExpiredUploads } from './retention.ts';

// Issue 15, the pipeline's tail: every try of a delivery stays in the job's history (a success
// no longer hides why the try before it failed), failed tries are logged at warn.

let server: TestServer;
let destination: TempDirDestination;
let sshd: OpenSshd;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
  destination = await startFtpDestination({ started: false });
  sshd = await startOpenSshd();
});
after(async () => {
  await server.stop();
  await destination.close();
  await sshd.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Job = {
  id: number;
  state: string;
  trynumber: number;
  errortext: string | null;
  tries: Array<{ startedAt: string; durationMs: number; bytes: number | null; error: string | null }>;
};

test('a destination that fails once, then takes the file: two tries, the first with its error', async () => {
  const team = await makeTeam(server);
  const { projectId, account } = await makeProjectWithServer(server, team, 'Fails once', {
    name: 'Down at first',
    port: destination.port,
    path: 'tries',
    ...destinationUser,
  });
  const warnings: unknown[] = [];
  const log = server.running.ctx.log;
  const warn = log.warn.bind(log);
  log.warn = ((...args: Parameters<typeof warn>) => {
    warnings.push(args[0]);
    return warn(...args);
  }) as typeof log.warn;

  const picture = crypto.randomBytes(300_000);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'IMG_0001.JPG', picture);
  const jobs = async () => {
    const res = await team.owner.client.post<{ jobs: Job[] }>(`/api/${team.teamUuid}/jobs/25/0`, {
      projectid: projectId,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.jobs;
  };
  let job: Job | undefined;
  for (let i = 0; i < 400 && !(job?.trynumber === 1); i++) {
    [job] = await jobs();
    if (job?.trynumber !== 1) await sleep(50);
  }
  assert.equal(job?.state, 'scheduled');
  assert.equal(job?.tries.length, 1);

  // The destination is back; the retry is due now instead of in 15 s.
  await destination.start();
  const db = server.running.ctx.db;
  await db
    .updateTable('jobs')
    .set({ scheduletime: new Date() })
    .where('project_id', '=', projectId)
    .execute();
  server.running.ctx.wake.pipeline();
  for (let i = 0; i < 400 && job?.state !== 'succeeded'; i++) {
    await sleep(50);
    [job] = await jobs();
  }
  assert.equal(job?.state, 'succeeded');
  assert.equal(job?.errortext, null, 'the job itself shows the success');
  const [first, second] = job?.tries ?? [];
  assert.equal(job?.tries.length, 2);
  assert.match(first?.error ?? '', new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${destination.port}`));
  assert.equal(first?.bytes, null);
  assert.equal(second?.error, null);
  assert.equal(second?.bytes, picture.length);
  assert.ok(Date.parse(first?.startedAt ?? '') <= Date.parse(second?.startedAt ?? ''));
  assert.ok((first?.durationMs ?? -1) >= 0 && (second?.durationMs ?? -1) >= 0);
  assert.deepEqual(destination.read('tries/IMG_0001.JPG'), picture);
  log.warn = warn;
  const logged = warnings.filter((w) => (w as { job?: number }).job === job?.id) as Array<{
    destination: string;
    error: string;
  }>;
  assert.equal(logged.length, 1, 'the failed try is logged once, at warn');
  assert.equal(logged[0]?.destination, 'Down at first');
  assert.match(logged[0]?.error ?? '', /ECONNREFUSED/);

  // Retention purges the tries with the job.
  await db
    .updateTable('uploads')
    .set({ received_at: sql<Date>`now() - interval '3 days'` })
    .where('project_id', '=', projectId)
    .execute();
  await purgeExpiredUploads(server.running.ctx, 1);
  const left = await db
    .selectFrom('job_tries')
    .select('id')
    .where('job_id', '=', job?.id ?? -1)
    .execute();
  assert.deepEqual(left, []);
});

test('an SFTP connection that drops under the transfer: tried again at once on a new one', async () => {
  const team = await makeTeam(server);
  const { projectId, account } = await makeProjectWithServer(server, team, 'Drops', {
    name: 'OpenSSH',
    protocol: 'sftp',
    port: sshd.port,
    path: `${sshd.root}/drops`,
    username: sshd.username,
    password: sshd.password,
  });
  const picture = crypto.randomBytes(40_000_000);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'BIG.JPG', picture);
  // As soon as the temp file grows, every SSH session is killed (a reset under the transfer).
  // On a loaded machine the processing before the delivery can take seconds: wait for the
  // transfer itself, however long it takes to begin, instead of dropping into nothing.
  const dir = `${sshd.root}/drops`;
  const growing = () => {
    const part = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => n.endsWith('.part')) : undefined;
    try {
      return part !== undefined && fs.statSync(`${dir}/${part}`).size > 0;
    } catch {
      return false; // renamed between the two calls
    }
  };
  const waitUntil = Date.now() + 60_000;
  while (!growing() && Date.now() < waitUntil) await sleep(5);
  assert.ok(growing(), 'the SFTP transfer began');
  sshd.dropConnections();
  const db = server.running.ctx.db;
  let job: { id: number; state: string; trynumber: number } | undefined;
  for (let i = 0; i < 1200 && job?.state !== 'succeeded'; i++) {
    await sleep(50);
    job = await db
      .selectFrom('jobs')
      .select(['id', 'state', 'trynumber'])
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }
  assert.equal(job?.state, 'succeeded');
  assert.equal(job?.trynumber, 0, 'no try counted against the retry schedule');
  const tries = await db
    .selectFrom('job_tries')
    .select(['bytes', 'error', 'started_at', 'duration_ms'])
    .where('job_id', '=', job?.id ?? -1)
    .orderBy('id')
    .execute();
  assert.equal(tries.length, 2, JSON.stringify(tries));
  assert.ok(tries[0]?.error, 'the broken try keeps its error');
  assert.equal(tries[1]?.error, null);
  assert.equal(Number(tries[1]?.bytes), picture.length);
  // "At once": the second try began right after the first ended, not after the 15 s backoff.
  const firstEnded = new Date(tries[0]?.started_at ?? 0).getTime() + (tries[0]?.duration_ms ?? 0);
  const gap = new Date(tries[1]?.started_at ?? 0).getTime() - firstEnded;
  assert.ok(gap < 10_000, `the second try began ${gap} ms after the first ended`);
  assert.deepEqual(fs.readFileSync(`${dir}/BIG.JPG`), picture);
});
