// Processing and deliveries have worker slots of their own (issue 15): uploads whose processing
// takes long do not keep a processed file from its delivery. Before, every slot tried processing
// first, and a stream of uploads kept all of them busy while finished files waited.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { ftpUpload } from '../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { processingSteps } from '../runtime.ts';
import type { ProcessingStep } from './processing.ts';

let server: TestServer;
let destination: TempDirDestination;
let release!: () => void;
const released = new Promise<void>((resolve) => {
  release = resolve;
});
// HOLD_ files stay in processing until the test releases them; FIRST.JPG's processing ends
// only once both have arrived, so that they wait for a processing slot when it is done.
const holdStep: ProcessingStep = {
  name: 'hold-test-step',
  async run(ctx, upload) {
    if (upload.path.includes('HOLD_')) await released;
    if (!upload.path.includes('FIRST')) return null;
    for (let waited = 0; waited < 10_000; waited += 50) {
      const uploads = await ctx.db
        .selectFrom('uploads')
        .select('id')
        .where('project_id', '=', upload.projectId)
        .execute();
      if (uploads.length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  },
};

before(async () => {
  destination = await startFtpDestination();
  // Two delivery slots and two processing slots (before: two slots that processed first).
  server = await startTestServer(
    { ALLOW_PRIVATE_NETWORKS: '1', WORKER_CONCURRENCY: '2' },
    { steps: [...processingSteps, holdStep] },
  );
});
after(async () => {
  release();
  await server.stop();
  await destination.close();
});

test('a processed file is delivered while other uploads are still being processed', async () => {
  const team = await makeTeam(server);
  const { account } = await makeProjectWithServer(server, team, 'Lanes', {
    port: destination.port,
    username: destinationUser.username,
    password: destinationUser.password,
  });
  const port = server.running.ingest?.ftpPort;
  await ftpUpload(port, account, 'FIRST.JPG', crypto.randomBytes(5000));
  await ftpUpload(port, account, 'HOLD_1.JPG', crypto.randomBytes(5000));
  await ftpUpload(port, account, 'HOLD_2.JPG', crypto.randomBytes(5000));
  const deadline = Date.now() + 20_000;
  while (!destination.files().includes('FIRST.JPG') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(destination.files(), ['FIRST.JPG'], 'delivered while the others are held in processing');
  release();
  while (destination.files().length < 3 && Date.now() < deadline + 20_000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(destination.files().sort(), ['FIRST.JPG', 'HOLD_1.JPG', 'HOLD_2.JPG']);
});
