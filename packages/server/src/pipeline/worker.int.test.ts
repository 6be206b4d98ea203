import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { processingSteps } from '../runtime.ts';
import { maxTries, retryDelay } from './worker.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1', RETENTION_DAYS: '1' });
});
after(() => server.stop());

test('the retry schedule: about 15 s, 1 min, 5 min, 15 min, then hourly; 10 tries', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 9].map(retryDelay), [15, 60, 300, 900, 3600, 3600]);
  assert.equal(maxTries, 10);
});

async function projectWithDeadDestination(name: string) {
  const team = await makeTeam(server);
  const { projectId, account } = await makeProjectWithServer(server, team, name, { name: 'Dead', port: 9 });
  return { team, projectId, account };
}

const upload = (account: { username: string; password: string } | undefined, name: string) =>
  ftpUpload(server.running.ingest?.ftpPort, account, name, crypto.randomBytes(2000));

test('a job that gives up is failed and owners and operators get one mail per destination and hour', async () => {
  const { team, projectId, account } = await projectWithDeadDestination('Gives up');
  const db = server.running.ctx.db;
  await upload(account, 'LAST_TRY.JPG');
  // Jump to the last try, due now.
  for (let i = 0; i < 50; i++) {
    const moved = await db
      .updateTable('jobs')
      .set({ trynumber: maxTries - 1, scheduletime: new Date() })
      .where('project_id', '=', projectId)
      .where('state', '=', 'scheduled')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  server.running.ctx.wake.pipeline();
  const mail = await server.mail.waitFor(team.owner.email, (m) => /failed/.test(m.subject));
  assert.match(mail.subject, /delivery to Dead failed \(Gives up\)/);
  assert.match(mail.text, /LAST_TRY\.JPG/);
  assert.match(mail.text, /ECONNREFUSED/);
  const job = await db
    .selectFrom('jobs')
    .select(['state', 'trynumber'])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(job, { state: 'failed', trynumber: maxTries });

  // A second give-up within the hour sends no second mail.
  await upload(account, 'SECOND.JPG');
  for (let i = 0; i < 50; i++) {
    const moved = await db
      .updateTable('jobs')
      .set({ trynumber: maxTries - 1, scheduletime: new Date() })
      .where('project_id', '=', projectId)
      .where('state', '=', 'scheduled')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  server.running.ctx.wake.pipeline();
  for (let i = 0; i < 100; i++) {
    const failed = await db
      .selectFrom('jobs')
      .select('id')
      .where('project_id', '=', projectId)
      .where('state', '=', 'failed')
      .execute();
    if (failed.length === 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(
    server.mail.mails.filter((m) => m.to === team.owner.email && /failed/.test(m.subject)).length,
    1,
  );
});

test('a job whose server left the project, or was deleted, fails at once with the reason', async () => {
  const db = server.running.ctx.db;
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const removed = await makeProjectWithServer(server, team, 'Server removed', { name: 'Removed', port: 9 });
  const deleted = await makeProjectWithServer(server, team, 'Server deleted', { name: 'Deleted', port: 9 });
  await upload(removed.account, 'A.JPG');
  await upload(deleted.account, 'B.JPG');
  const projects = [removed.projectId, deleted.projectId];
  // Both wait for their retry (nothing listens on port 9) ...
  const waiting = async () =>
    db
      .selectFrom('jobs')
      .select(['project_id', 'state', 'errortext', 'trynumber'])
      .where('project_id', 'in', projects)
      .orderBy('project_id')
      .execute();
  // (a first try has failed: both are scheduled again with its error; an upload's jobs start as
  // scheduled too, so the state alone does not tell).
  const retrying = (jobs: Awaited<ReturnType<typeof waiting>>) =>
    jobs.filter((j) => j.state === 'scheduled' && j.trynumber === 1 && j.errortext).length;
  for (let i = 0; i < 600 && retrying(await waiting()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(retrying(await waiting()), 2);
  // ... when one server is taken off its project and the other deleted.
  const c = team.owner.client;
  assert.equal(
    (await c.del(`${base}/project/${removed.projectId}/ftpserver/${removed.serverId}`)).status,
    200,
  );
  assert.equal((await c.del(`${base}/ftpserver/${deleted.serverId}`)).status, 200);
  await db
    .updateTable('jobs')
    .set({ scheduletime: new Date() })
    .where('project_id', 'in', projects)
    .execute();
  server.running.ctx.wake.pipeline();
  let jobs = await waiting();
  for (let i = 0; i < 600 && jobs.some((j) => j.state !== 'failed'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    jobs = await waiting();
  }
  assert.deepEqual(
    jobs.map((j) => [j.state, j.errortext, j.trynumber]),
    [
      ['failed', 'The FTP server was removed from the project', 2],
      ['failed', 'The FTP server was deleted', 2],
    ],
  );
});

test('retention purges finished uploads, their jobs and files; waiting ones stay', async () => {
  const { projectId, account } = await projectWithDeadDestination('Retention');
  const db = server.running.ctx.db;
  await upload(account, 'OLD.JPG');
  await upload(account, 'WAITING.JPG');
  for (let i = 0; i < 50; i++) {
    const n = await db.selectFrom('jobs').select('id').where('project_id', '=', projectId).execute();
    if (n.length === 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await db
    .updateTable('uploads')
    .set({ received_at: sql<Date>`now() - interval '3 days'` })
    .where('project_id', '=', projectId)
    .execute();
  const old = await db
    .selectFrom('uploads')
    .select(['id', 'blob_key'])
    .where('project_id', '=', projectId)
    .where('path', '=', 'OLD.JPG')
    .executeTakeFirstOrThrow();
  await db.updateTable('jobs').set({ state: 'failed' }).where('upload_id', '=', old.id).execute();
  // Where the local blob store keeps it.
  const file = path.join(server.running.ctx.config.DATA_DIR, 'files', old.blob_key);
  const { default: fs } = await import('node:fs');
  assert.ok(fs.existsSync(file));

  const worker = (await import('./worker.ts')).startPipelineWorker(server.running.ctx, {
    steps: processingSteps,
    concurrency: 1,
    leaseSeconds: 30,
    retentionDays: 1,
  });
  await worker.purgeExpired();
  await worker.stop();
  const left = await db.selectFrom('uploads').select('path').where('project_id', '=', projectId).execute();
  assert.deepEqual(
    left.map((u) => u.path),
    ['WAITING.JPG'],
  );
  assert.equal(fs.existsSync(file), false);
  assert.equal(
    (await db.selectFrom('jobs').select('id').where('upload_id', '=', old.id).execute()).length,
    0,
  );
});
