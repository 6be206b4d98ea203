// Issue 15: the engine's work on a picture's metadata runs on a stamp thread within
// STAMP_TIME_LIMIT_MS; a picture over it is delivered unstamped with the reason, or held when the
// project holds pictures that cannot be stamped.
// The limit here is 1 ms so that a packet of 9,000 properties surely runs over it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Job } from '@photorelay/contract/jobs';
import { manyProperties, withSegments } from '@photorelay/xmp/test-support';
import { xmpSegments } from '@photorelay/xmp/xmp-jpeg';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1', STAMP_TIME_LIMIT_MS: '1' });
});
after(() => server.stop());

/** The job of `filename` once its metadata step is recorded. */
async function processedJob(
  client: { post: <T>(path: string, body?: unknown) => Promise<{ status: number; body: T }> },
  base: string,
  projectId: number,
  filename: string,
): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const res = await client.post<{ jobs: Job[] }>(`${base}/jobs/50/0`, { projectid: projectId });
    const job = res.body.jobs?.find((candidate) => candidate.filename.endsWith(filename));
    if (job && JSON.stringify(job.detail ?? {}).includes('"metadata"')) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no metadata detail for ${filename}`);
}

test('a picture whose metadata takes longer than STAMP_TIME_LIMIT_MS is delivered unstamped with the reason, or held', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Limit', { port: 9 });
  assert.equal((await c.put(`${base}/project/${projectId}/xmpvaluemode/headline/mode/replace`)).status, 200);

  const large = withSegments(xmpSegments(manyProperties(9000)));
  const reason = /"metadata":\{"error":"the metadata took longer than 1 ms to process and was not stamped/;
  await ftpUpload(server.running.ingest?.ftpPort, account, 'LARGE_1.JPG', large);
  const delivered = await processedJob(c, base, projectId, 'LARGE_1.JPG');
  assert.match(JSON.stringify(delivered.detail), reason);
  assert.notEqual(delivered.state, 'held');

  // With "hold pictures that cannot be stamped" the next one waits instead.
  const settings = `${base}/project/${projectId}/metadatasettings`;
  assert.equal((await c.put(settings, { holdUnstampable: true })).status, 200);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'LARGE_2.JPG', large);
  const held = await processedJob(c, base, projectId, 'LARGE_2.JPG');
  assert.match(JSON.stringify(held.detail), reason);
  assert.equal(held.state, 'held');
});
