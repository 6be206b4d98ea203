// Issue 15: a picture the template cannot be stamped into is delivered unstamped, with the
// reason in the job detail; with the project setting "hold pictures that cannot be stamped" its
// deliveries wait as 'held' until someone releases them ('retry now').
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Job } from '@photorelay/contract/jobs';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
});
after(() => server.stop());

/** A JPEG whose head ends inside its APP1 segment: no engine can stamp it. */
const unstampable = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x10, 0x00]),
  Buffer.alloc(100, 0x41),
]);

async function listJobs(
  client: { post: <T>(path: string, body?: unknown) => Promise<{ status: number; body: T }> },
  base: string,
  projectId: number,
  filename: string,
  until: (job: Job) => boolean = () => true,
): Promise<Job> {
  for (let i = 0; i < 150; i++) {
    const res = await client.post<{ jobs: Job[] }>(`${base}/jobs/50/0`, { projectid: projectId });
    const job = res.body.jobs?.find((candidate) => candidate.filename.endsWith(filename));
    if (job && until(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no job for ${filename} in the expected state`);
}

test('unstampable pictures: delivered unstamped with the reason, or held and released', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Hold', { port: 9 });
  assert.equal((await c.put(`${base}/project/${projectId}/xmpvaluemode/headline/mode/replace`)).status, 200);

  // The setting: off by default, bad input refused and nothing changed.
  const settings = `${base}/project/${projectId}/metadatasettings`;
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: false, holdUnresolvedVariables: false });
  assert.equal((await c.put(settings, { holdUnstampable: 'yes' })).status, 400);
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: false, holdUnresolvedVariables: false });

  // Off: the job goes ahead, the processing detail tells why the file is unstamped.
  await ftpUpload(server.running.ingest?.ftpPort, account, 'BROKEN_1.JPG', unstampable);
  const delivered = await listJobs(
    c,
    base,
    projectId,
    'BROKEN_1.JPG',
    (job) => job.detail !== undefined && JSON.stringify(job.detail).includes('"metadata"'),
  );
  assert.notEqual(delivered.state, 'held');
  assert.match(JSON.stringify(delivered.detail), /"metadata":\{"error":"file ends inside segment 0xe1/);

  // On: the next such picture is held, visible, and released by 'retry now'.
  assert.equal((await c.put(settings, { holdUnstampable: true })).status, 200);
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: true, holdUnresolvedVariables: false });
  await ftpUpload(server.running.ingest?.ftpPort, account, 'BROKEN_2.JPG', unstampable);
  const held = await listJobs(c, base, projectId, 'BROKEN_2.JPG', (job) => job.state === 'held');
  assert.equal(held.canRetry, true);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal((await listJobs(c, base, projectId, 'BROKEN_2.JPG')).state, 'held', 'stays held');
  const summary = await c.post<{
    summary: Array<{ projectid: number; heldjobcount?: number; unstampedjobcount?: number }>;
  }>(`${base}/jobs/summary`);
  const row = summary.body.summary.find((entry) => entry.projectid === projectId);
  assert.deepEqual([row?.heldjobcount, row?.unstampedjobcount], [1, 1], 'the dashboard counts both');
  assert.equal((await c.post(`${base}/job/${held.id}/retry`)).status, 200);
  const released = await listJobs(c, base, projectId, 'BROKEN_2.JPG', (job) => job.state !== 'held');
  assert.ok(['scheduled', 'running', 'failed'].includes(released.state), released.state);
});
