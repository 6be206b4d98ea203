import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCommand } from '../../../test/support/commands.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { createProject, dataUrl, readImage } from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { startPipelineWorker } from '../../pipeline/worker.ts';
import { processingSteps } from '../../runtime.ts';
import { teamStorageUsed } from './quota.ts';

// Issue 10 item 16: test images (30 MB each, kept an hour) and stored sidecar payloads had no
// limit per team; expired test results were only purged when the next one arrived.
let server: TestServer;
before(async () => {
  server = await startTestServer({ TEAM_STORAGE_QUOTA_MB: '1' });
});
after(() => server.stop());

/** A valid JPEG of about `bytes`: comment segments (kept by the stamper) after SOI. */
function jpegOf(bytes: number): Buffer {
  const base = readImage('exiv2-empty.jpg');
  const segments: Buffer[] = [];
  for (let left = bytes - base.length; left > 0; left -= 60_000) {
    const size = Math.min(60_000, left);
    const header = Buffer.from([0xff, 0xfe, 0, 0]);
    header.writeUInt16BE(size + 2, 2);
    segments.push(header, Buffer.alloc(size, 0x20));
  }
  return Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
}

const image = jpegOf(400_000);
const testImageRows = (teamId: number) =>
  server.running.ctx.db
    .selectFrom('metadata_test_images')
    .select('id')
    .where('team_id', '=', teamId)
    .execute();

test('test images and sidecar payloads count against the team quota; over it is refused and stores nothing', async () => {
  const team = await makeTeam(server, 'Quota');
  const other = await makeTeam(server, 'Neighbour');
  const c = team.owner.client;
  const projectId = await createProject(server, team);
  const another = () =>
    c.post(`/api/${team.teamUuid}/command/processimage`, {
      dbprojectid: projectId,
      filename: 'big.jpg',
      content: dataUrl(image),
    });

  for (let i = 0; i < 2; i++) {
    const done = await runCommand(c, team.teamUuid, 'processimage', {
      dbprojectid: projectId,
      filename: 'big.jpg',
      content: dataUrl(image),
    });
    assert.equal(done.state, 'ok', JSON.stringify(done.detail));
  }
  const used = await teamStorageUsed(server.running.ctx, team.teamId);
  assert.ok(used > 800_000 && used < 1024 * 1024, `${used} bytes used`);

  const rowsBefore = (await testImageRows(team.teamId)).length;
  const refused = await another();
  assert.deepEqual([refused.status, refused.body.error], [413, 'QuotaExceeded']);
  assert.match(String(refused.body.message), /quota of 1 MB/);
  assert.equal((await testImageRows(team.teamId)).length, rowsBefore, 'nothing stored');

  // A sidecar's payload counts too.
  const sidecar = await c.post(`/api/${team.teamUuid}/command/storexmpfile`, {
    dbprojectid: projectId,
    filename: 'big.xmp',
    content: dataUrl(Buffer.alloc(300_000, 0x20), 'application/rdf+xml'),
  });
  assert.deepEqual([sidecar.status, sidecar.body.error], [413, 'QuotaExceeded']);

  // Another team's quota is its own.
  const otherProject = await createProject(server, other);
  const theirs = await runCommand(other.owner.client, other.teamUuid, 'processimage', {
    dbprojectid: otherProject,
    filename: 'big.jpg',
    content: dataUrl(image),
  });
  assert.equal(theirs.state, 'ok');
});

test('expired test results are purged on a timer, without a next upload, and free the quota', async () => {
  const team = await makeTeam(server, 'Expiry');
  const projectId = await createProject(server, team);
  const done = await runCommand<{ a: number; b: string }>(team.owner.client, team.teamUuid, 'processimage', {
    dbprojectid: projectId,
    filename: 'big.jpg',
    content: dataUrl(image),
  });
  assert.equal(done.state, 'ok');
  const ctx = server.running.ctx;
  const [row] = await ctx.db
    .selectFrom('metadata_test_images')
    .select(['id', 'result_blob_key'])
    .where('team_id', '=', team.teamId)
    .execute();
  assert.ok(row?.result_blob_key);
  await ctx.db
    .updateTable('metadata_test_images')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', row.id)
    .execute();
  // Expired, it counts no more (what is left: the command's small answer).
  assert.ok((await teamStorageUsed(ctx, team.teamId)) < 10_000);

  // A worker whose timer runs often (the real one: every minute).
  const worker = startPipelineWorker(ctx, {
    steps: processingSteps,
    concurrency: 1,
    leaseSeconds: 30,
    retentionDays: 30,
    pollMs: 60_000,
    testImagePurgeMs: 100,
  });
  try {
    const resultKey = row.result_blob_key;
    // The purge deletes the rows, then their files: wait for both.
    const fileGone = () =>
      ctx.blobs.size(resultKey).then(
        () => false,
        () => true,
      );
    for (let i = 0; i < 200 && ((await testImageRows(team.teamId)).length > 0 || !(await fileGone())); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await testImageRows(team.teamId)).length, 0, 'the expired result is gone');
    assert.equal(await fileGone(), true, 'its file is gone');
  } finally {
    await worker.stop();
  }
  const download = await team.owner.client.get(
    `/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`,
  );
  assert.equal(download.status, 404);
});
