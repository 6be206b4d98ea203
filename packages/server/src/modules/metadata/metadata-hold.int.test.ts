// Issue 15: a picture the template cannot be stamped into is delivered unstamped, with the
// reason in the job detail; with the project setting "hold pictures that cannot be stamped" its
// deliveries wait as 'held' until someone releases them ('retry now').
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Job } from '@photorelay/contract/jobs';
import { sql } from 'kysely';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../../test/support/factories.ts';
import { readImage } from '../../../test/support/metadata.ts';
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

/**
 * Reads the project's held deliveries as fast as the database answers until stopped, and names
 * every one seen without its reason (the metadata error in its upload's detail). Held inside the
 * metadata step and the reason written when processing ended left such a moment (issue 30).
 */
function watchHeldWithoutReason(projectId: number) {
  const db = server.running.ctx.db;
  const unexplained = new Set<string>();
  let reads = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const held = await sql<{ path: string; reason: string | null }>`
        select u.path, u.processing_detail -> 'metadata' ->> 'error' as reason
        from jobs j join uploads u on u.id = j.upload_id
        where j.project_id = ${projectId} and j.state = 'held'`.execute(db);
      reads++;
      for (const row of held.rows) if (!row.reason) unexplained.add(row.path);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      assert.ok(reads > 5, `the watch read the jobs (${reads} times)`);
      return [...unexplained];
    },
  };
}

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
  const watch = watchHeldWithoutReason(projectId);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'BROKEN_2.JPG', unstampable);
  const held = await listJobs(c, base, projectId, 'BROKEN_2.JPG', (job) => job.state === 'held');
  assert.deepEqual(await watch.stop(), [], 'never held without its reason');
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

interface PictureRowLike {
  uploadId: number;
  filename: string;
  unstamped: string | null;
  exifNotUpdated: string[];
  deliveries: Array<{ jobId: number; state: string }>;
}

async function pictureRow(
  client: { post: <T>(path: string, body?: unknown) => Promise<{ status: number; body: T }> },
  base: string,
  projectId: number,
  filename: string,
  until: (row: PictureRowLike) => boolean,
): Promise<PictureRowLike> {
  for (let i = 0; i < 150; i++) {
    const res = await client.post<{ pictures: PictureRowLike[] }>(`${base}/pictures/50/0`, {
      projectid: projectId,
    });
    const row = res.body.pictures?.find((candidate) => candidate.filename.endsWith(filename));
    if (row && until(row)) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no picture ${filename} in the expected state`);
}

test('issue 26: a held picture shows its reason in the picture log and is released with one call', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Release', { port: 9 });
  assert.equal((await c.put(`${base}/project/${projectId}/xmpvaluemode/headline/mode/replace`)).status, 200);
  assert.equal(
    (await c.put(`${base}/project/${projectId}/metadatasettings`, { holdUnstampable: true })).status,
    200,
  );
  const watch = watchHeldWithoutReason(projectId);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'HELD.JPG', unstampable);
  // The hold and its reason are written in one transaction: whenever it is held, it says why.
  const held = await pictureRow(c, base, projectId, 'HELD.JPG', (row) =>
    row.deliveries.some((d) => d.state === 'held'),
  );
  assert.deepEqual(await watch.stop(), [], 'never held without its reason');
  assert.notEqual(held.unstamped, null, 'the picture log shows the reason with the hold');
  assert.match(held.unstamped ?? '', /file ends inside segment 0xe1/);
  assert.deepEqual(held.exifNotUpdated, []);

  // Bad input and another team change nothing.
  assert.equal((await c.post(`${base}/upload/abc/release`)).status, 400);
  const other = await makeTeam(server);
  assert.equal(
    (await other.owner.client.post(`/api/${other.teamUuid}/upload/${held.uploadId}/release`)).status,
    404,
  );
  assert.equal((await pictureRow(c, base, projectId, 'HELD.JPG', () => true)).deliveries[0]?.state, 'held');

  const released = await c.post<{ released: number }>(`${base}/upload/${held.uploadId}/release`);
  assert.equal(released.status, 200);
  assert.equal(released.body.released, 1);
  await pictureRow(c, base, projectId, 'HELD.JPG', (row) => row.deliveries.every((d) => d.state !== 'held'));
  // Nothing held any more: said, not done twice.
  assert.equal((await c.post(`${base}/upload/${held.uploadId}/release`)).status, 409);
});

test('issue 26: EXIF texts left with the camera’s old value are named on the picture', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Exif', { port: 9 });
  const project = `${base}/project/${projectId}`;
  assert.equal((await c.put(`${project}/xmpvalue/creatorNames`, { value: 'Neue Fotografin' })).status, 200);
  assert.equal((await c.put(`${project}/xmpvaluemode/creatorNames/mode/replace`)).status, 200);
  // exiftool-XMP.jpg with its Exif TIFF header broken ('II'/'MM' overwritten): unreadable.
  const input = Buffer.from(readImage('exiftool-XMP.jpg'));
  const exifAt = input.indexOf(Buffer.from('Exif\0\0', 'latin1'));
  assert.ok(exifAt > 0);
  input.write('XX', exifAt + 6, 'latin1');
  await ftpUpload(server.running.ingest?.ftpPort, account, 'EXIF.JPG', input);
  const row = await pictureRow(c, base, projectId, 'EXIF.JPG', (r) => r.exifNotUpdated.length > 0);
  assert.deepEqual(row.exifNotUpdated, ['Artist']);
  assert.equal(row.unstamped, null);
});
