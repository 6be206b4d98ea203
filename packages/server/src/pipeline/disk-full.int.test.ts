import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ftpUpload } from '../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { readImage } from '../../test/support/metadata.ts';
import { storeScript } from '../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 29 item 4: a full disk at the moment of stamping sent the picture without its metadata
// and the job read "succeeded". Here the disk is really full: DATA_DIR/files is a small tmpfs,
// filled so that the received picture just fits and its stamped head does not. The picture must
// wait, and go out stamped once space returns.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-disk-full-'));
const filesDir = path.join(dataDir, 'files');
const filler = path.join(filesDir, 'filler');
const headline = 'Stamped after the disk had room again';
let mounted = false;
let server: TestServer;
let destination: TempDirDestination;

// A tmpfs needs root (CI runs as root); elsewhere the test is skipped, saying why.
const canMount = process.getuid?.() === 0;

before(async () => {
  if (!canMount) return;
  fs.mkdirSync(filesDir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', filesDir]);
  mounted = true;
  server = await startTestServer(
    // No free-space floor on this 8 MB disk: the upload must be taken, and its stamp find no room.
    {
      ALLOW_PRIVATE_NETWORKS: '1',
      STORAGE_FULL_RETRY_SECONDS: '1',
      DISK_FREE_MIN_MB: '0',
      DISK_CHECK_SECONDS: '0.5',
    },
    { dataDir, pollMs: 200 },
  );
  destination = await startFtpDestination();
});
after(async () => {
  await server?.stop();
  await destination?.close();
  if (mounted) execFileSync('umount', ['-l', filesDir]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fills the file system so that exactly `keepBytes` (rounded up to whole blocks) stay free. */
function fillLeaving(keepBytes: number) {
  const { bavail, bsize } = fs.statfsSync(filesDir);
  const keepBlocks = Math.ceil(keepBytes / bsize);
  fs.writeFileSync(filler, Buffer.alloc((bavail - keepBlocks) * bsize));
  assert.equal(fs.statfsSync(filesDir).bavail, keepBlocks, 'the disk is filled as planned');
}

test('a picture whose stamp finds the disk full waits, and is delivered stamped once there is space', {
  skip: canMount ? false : 'needs root to mount a small tmpfs',
}, async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const { projectId, account } = await makeProjectWithServer(server, team, 'Disk full', {
    port: destination.port,
    path: 'full',
    ...destinationUser,
  });
  const base = `/api/${team.teamUuid}/project/${projectId}`;
  assert.equal((await c.put(`${base}/xmpvalue/headline`, { value: headline })).status, 200);
  assert.equal((await c.put(`${base}/xmpvaluemode/headline/mode/replace`)).status, 200);
  const picture = readImage('exiftool-XMP.jpg');
  assert.ok(!picture.includes(headline));

  // Room for the received picture, none for its stamped head.
  fillLeaving(picture.length);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'IMG_0001.JPG', picture);
  const db = server.running.ctx.db;
  const state = async () => {
    const upload = await db
      .selectFrom('uploads')
      .select(['id', 'state'])
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    const job = await db
      .selectFrom('jobs')
      .select(['state'])
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return { upload: upload?.state, job: job?.state };
  };
  // Several retries (one a second) find the disk still full: nothing goes out meanwhile.
  for (let i = 0; i < 25; i++) {
    await sleep(200);
    assert.deepEqual(destination.files(), [], 'nothing is sent while the disk is full');
    const now = await state();
    assert.notEqual(now.job, 'succeeded');
    assert.notEqual(now.upload, 'processed', 'the upload waits for space');
  }
  assert.equal(fs.statfsSync(filesDir).bavail, 0, 'the disk is still full (nothing half-written was kept)');

  // Space returns: the picture is stamped and delivered.
  fs.rmSync(filler);
  let delivered: Buffer | null = null;
  for (let i = 0; i < 300 && !delivered; i++) {
    delivered = destination.read('full/IMG_0001.JPG');
    if (!delivered) await sleep(100);
  }
  assert.ok(delivered, 'delivered once there is space');
  assert.ok(delivered.includes(Buffer.from(headline)), 'delivered with its metadata');
  for (let i = 0; i < 100 && (await state()).job !== 'succeeded'; i++) await sleep(100);
  assert.deepEqual(await state(), { upload: 'processed', job: 'succeeded' });
  const detail = await db
    .selectFrom('uploads')
    .select('processing_detail')
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  assert.doesNotMatch(JSON.stringify(detail.processing_detail), /error/);
});

test('a script whose metadata change finds the disk full: the upload waits (no script error), then goes out changed', {
  skip: canMount ? false : 'needs root to mount a small tmpfs',
}, async () => {
  const team = await makeTeam(server);
  const { projectId, account } = await makeProjectWithServer(server, team, 'Disk full script', {
    port: destination.port,
    path: 'script',
    ...destinationUser,
  });
  const written = 'Written by a script after the disk had room';
  await storeScript(
    team.owner.client,
    team,
    { dbprojectid: projectId },
    `meta.set('headline', '${written}')`,
  );
  const picture = readImage('exiftool-XMP.jpg');
  fillLeaving(picture.length);
  await ftpUpload(server.running.ingest?.ftpPort, account, 'IMG_0002.JPG', picture);
  const db = server.running.ctx.db;
  const jobState = async () =>
    (await db.selectFrom('jobs').select(['state']).where('project_id', '=', projectId).executeTakeFirst())
      ?.state;
  for (let i = 0; i < 25; i++) {
    await sleep(200);
    assert.deepEqual(destination.files('script'), [], 'nothing is sent while the disk is full');
    assert.equal(await jobState(), 'scheduled', 'the job waits: no script error, no delivery');
  }
  fs.rmSync(filler);
  let delivered: Buffer | null = null;
  for (let i = 0; i < 300 && !delivered; i++) {
    delivered = destination.read('script/IMG_0002.JPG');
    if (!delivered) await sleep(100);
  }
  assert.ok(delivered?.includes(Buffer.from(written)), "delivered with the script's change");
});
