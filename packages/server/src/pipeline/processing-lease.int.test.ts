// Processing an upload that takes longer than the lease: the worker renews the upload's lease
// while its steps run, so no other worker slot takes the upload again and processes it twice.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { ftpUpload } from '../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { processingSteps } from '../runtime.ts';
import type { ProcessingStep } from './processing.ts';

let server: TestServer;
const runs = new Map<string, number>();
// A step slower than the 2 s lease, for this test's files only.
const slowStep: ProcessingStep = {
  name: 'slow-test-step',
  async run(_ctx, upload) {
    if (!upload.path.includes('SLOW_')) return null;
    runs.set(upload.path, (runs.get(upload.path) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return null;
  },
};
before(async () => {
  server = await startTestServer(
    { ALLOW_PRIVATE_NETWORKS: '1', JOB_LEASE_SECONDS: '2' },
    { steps: [...processingSteps, slowStep] },
  );
});
after(() => server.stop());

test('a step slower than the lease runs once: the upload lease is renewed while processing', async () => {
  const team = await makeTeam(server);
  const { projectId, account } = await makeProjectWithServer(server, team, 'Slow', { port: 9 });
  await ftpUpload(server.running.ingest?.ftpPort, account, 'SLOW_1.JPG', crypto.randomBytes(2000));
  const db = server.running.ctx.db;
  const deadline = Date.now() + 20_000;
  let state = '';
  while (Date.now() < deadline) {
    const row = await db
      .selectFrom('uploads')
      .select('state')
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    state = row?.state ?? '';
    if (state !== 'received' && state !== 'processing') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.notEqual(state, 'processing', 'processing finished');
  const path = [...runs.keys()].find((key) => key.includes('SLOW_1.JPG'));
  assert.ok(path, 'the step ran');
  assert.equal(runs.get(path), 1, 'processed once');
});
