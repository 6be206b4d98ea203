// Issue 28 item 5: a template variable without a value for the picture ("Photo: {photographer} /
// Agency" for a camera photographers.json does not know) no longer ships silently as
// "Photo:  / Agency". The picture log names it ("{photographer} had no value for camera serial
// 1234"); the project chooses: send as is (default) or hold until released, as unstampable
// pictures are held (metadata-hold.int.test.ts), released by the same 'retry now'.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PictureRow } from '@photorelay/contract/jobs';
import { ftpUpload } from '../../../test/support/camera.ts';
import { startFtpDestination, type TempDirDestination } from '../../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../../test/support/factories.ts';
import { dataUrl, readImage, withCameraSerial } from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
let destination: TempDirDestination;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
  destination = await startFtpDestination();
});
after(async () => {
  await destination.close();
  await server.stop();
});

type Client = ReturnType<TestServer['client']>;

async function pictureOf(
  c: Client,
  base: string,
  projectId: number,
  filename: string,
  until: (row: PictureRow) => boolean,
): Promise<PictureRow> {
  let last: PictureRow | undefined;
  for (let i = 0; i < 200; i++) {
    const res = await c.post<{ pictures: PictureRow[] }>(`${base}/pictures/50/0`, { projectid: projectId });
    last = res.body.pictures?.find((row) => row.filename === filename);
    if (last && until(last)) return last;
    if (i % 20 === 19)
      console.log(filename, JSON.stringify(last?.deliveries.map((d) => [d.state, d.trynumber, d.errortext])));
    server.running.ctx.wake.pipeline();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${filename} never reached the expected state: ${JSON.stringify(last)}`);
}

const delivered = (row: PictureRow) => row.deliveries.every((d) => d.state === 'succeeded');

async function projectWithCreditTemplate() {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Variables', {
    port: destination.port,
    username: destination.username,
    password: destination.password,
  });
  const file = await c.post(`${base}/file`, {
    name: 'photographers.json',
    content: dataUrl(Buffer.from(JSON.stringify({ '999': 'Jane Doe' })), 'application/json'),
  });
  assert.equal(file.status, 200);
  const project = `${base}/project/${projectId}`;
  assert.equal(
    (await c.put(`${project}/xmpvalue/creditLine`, { value: 'Photo: {photographer} / Agency' })).status,
    200,
  );
  assert.equal((await c.put(`${project}/xmpvaluemode/creditLine/mode/replace`, {})).status, 200);
  return { c, base, projectId, account, settings: `${project}/metadatasettings` };
}

const picture = (serial: string) => withCameraSerial(readImage('exiv2-empty.jpg'), serial);

test('default: sent as it is, with "{photographer} had no value for camera serial 1234" on the picture', async () => {
  const { c, base, projectId, account, settings } = await projectWithCreditTemplate();
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: false, holdUnresolvedVariables: false });

  await ftpUpload(server.running.ingest?.ftpPort, account, 'UNKNOWN_CAMERA_1.JPG', picture('1234'));
  await ftpUpload(server.running.ingest?.ftpPort, account, 'KNOWN_CAMERA_1.JPG', picture('999'));
  const unknown = await pictureOf(c, base, projectId, 'UNKNOWN_CAMERA_1.JPG', delivered);
  assert.deepEqual(unknown.emptyVariables, [{ name: 'photographer', serial: '1234' }]);
  const known = await pictureOf(c, base, projectId, 'KNOWN_CAMERA_1.JPG', delivered);
  assert.deepEqual(known.emptyVariables, []);
  assert.ok(destination.files().some((f) => f.endsWith('UNKNOWN_CAMERA_1.JPG')));
  // The technical detail keeps the sentence too.
  const job = await c.post<{ jobs: Array<{ filename: string; detail?: unknown }> }>(`${base}/jobs/50/0`, {
    projectid: projectId,
  });
  const detail = JSON.stringify(
    job.body.jobs.find((j) => j.filename.endsWith('UNKNOWN_CAMERA_1.JPG'))?.detail,
  );
  assert.match(detail, /\{photographer\} had no value for camera serial 1234/);
});

test('hold: the picture waits as held until released, then is delivered; known cameras go at once', async () => {
  const { c, base, projectId, account, settings } = await projectWithCreditTemplate();
  // Bad input is refused and changes nothing; each switch saves its own setting.
  assert.equal((await c.put(settings, { holdUnresolvedVariables: 'yes' })).status, 400);
  assert.equal((await c.put(settings, {})).status, 400);
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: false, holdUnresolvedVariables: false });
  assert.equal((await c.put(settings, { holdUnresolvedVariables: true })).status, 200);
  assert.deepEqual((await c.get(settings)).body, { holdUnstampable: false, holdUnresolvedVariables: true });

  await ftpUpload(server.running.ingest?.ftpPort, account, 'KNOWN_CAMERA_2.JPG', picture('999'));
  await ftpUpload(server.running.ingest?.ftpPort, account, 'UNKNOWN_CAMERA_2.JPG', picture('1234'));
  await pictureOf(c, base, projectId, 'KNOWN_CAMERA_2.JPG', delivered);
  // Held while processing; its detail (the warning) is written when processing ends.
  const held = await pictureOf(
    c,
    base,
    projectId,
    'UNKNOWN_CAMERA_2.JPG',
    (row) => row.deliveries.every((d) => d.state === 'held') && row.emptyVariables.length > 0,
  );
  assert.deepEqual(held.emptyVariables, [{ name: 'photographer', serial: '1234' }]);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const still = await pictureOf(c, base, projectId, 'UNKNOWN_CAMERA_2.JPG', () => true);
  assert.deepEqual(
    still.deliveries.map((d) => d.state),
    ['held'],
    'stays held',
  );
  assert.ok(!destination.files().some((f) => f.endsWith('UNKNOWN_CAMERA_2.JPG')), 'nothing sent while held');

  // Released with 'retry now', the path held unstampable pictures take.
  const jobId = still.deliveries[0]?.jobId;
  assert.equal((await c.post(`${base}/job/${jobId}/retry`)).status, 200);
  await pictureOf(c, base, projectId, 'UNKNOWN_CAMERA_2.JPG', delivered);
  assert.ok(destination.files().some((f) => f.endsWith('UNKNOWN_CAMERA_2.JPG')));
});
