import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { claimJob } from './queue.ts';
import { recordUpload } from './record-upload.ts';

// claimJob's order, driven by hand: the server runs without a worker, so nothing else claims.
let server: TestServer;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' }, { role: 'web' });
});
after(() => server.stop());

const lease = 60;

/** A project of its own team with one FTP server destination that allows `maxConnections`. */
async function projectWithServer(name: string, maxConnections: number) {
  const team = await makeTeam(server);
  const { projectId } = await makeProjectWithServer(server, team, name, { maxConnections });
  return { teamId: team.teamId, projectId };
}

/** `count` received and processed files of the project, each with its job, oldest first. */
async function queueFiles(project: { teamId: number; projectId: number }, names: string[]) {
  const db = server.running.ctx.db;
  for (const name of names) {
    const recorded = await recordUpload(db, {
      projectId: project.projectId,
      path: name,
      size: 1,
      sha256: name.padEnd(64, '0'),
      blobKey: `2026/01/01/${crypto.randomUUID()}`,
      protocol: 'ftp',
      remoteAddress: null,
      chain: [],
      sourceUploadId: null,
    });
    await db
      .updateTable('uploads')
      .set((eb) => ({
        state: 'processed',
        processed_blob_key: eb.ref('blob_key'),
        processed_size: 1,
        processed_sha256: eb.ref('sha256'),
      }))
      .where('id', '=', recorded?.uploadId ?? -1)
      .execute();
  }
}

const claimed = async () => (await claimJob(server.running.ctx.db, 'test-worker', lease))?.path ?? null;

test("the project with the fewest deliveries running goes first: one burst does not hold up another team's picture", async () => {
  const burst = await projectWithServer('Burst', 4);
  const single = await projectWithServer('Single', 4);
  await queueFiles(burst, ['B1.JPG', 'B2.JPG', 'B3.JPG']);
  await queueFiles(single, ['S1.JPG']);
  // Oldest first while nothing runs; then the project with nothing running; then the burst again.
  assert.deepEqual(
    [await claimed(), await claimed(), await claimed(), await claimed()],
    ['B1.JPG', 'S1.JPG', 'B2.JPG', 'B3.JPG'],
  );
  assert.equal(await claimed(), null);
});

test('a server with all its connections busy is passed over; a lease that ran out frees its place', async () => {
  const db = server.running.ctx.db;
  const one = await projectWithServer('One connection', 1);
  await queueFiles(one, ['O1.JPG', 'O2.JPG']);
  assert.equal(await claimed(), 'O1.JPG');
  assert.equal(await claimed(), null, 'O2 waits while O1 has the only connection');

  // The worker delivering O1 died: its lease runs out, and O1 (not O2) is taken again.
  await db
    .updateTable('jobs')
    .set({ locked_until: new Date(Date.now() - 1000) })
    .where('project_id', '=', one.projectId)
    .where('state', '=', 'running')
    .execute();
  assert.equal(await claimed(), 'O1.JPG');
  assert.equal(await claimed(), null);

  // O1 delivered: the connection is free for O2.
  await db
    .updateTable('jobs')
    .set({ state: 'succeeded', locked_until: null })
    .where('project_id', '=', one.projectId)
    .where('state', '=', 'running')
    .execute();
  assert.equal(await claimed(), 'O2.JPG');
});
