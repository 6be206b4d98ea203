import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exifThumbnail } from '@photorelay/xmp/exif-thumbnail';
import { readHead } from '@photorelay/xmp/parsed-metadata';
import sharp from 'sharp';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { readImage } from '../../../test/support/metadata.ts';
import { setupProject, waitForJobs } from '../../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 16 "pictures, not only rows": thumbnails made once on first request, kept with the
// upload, purged with it; the job detail's caption and credit as stamped.

const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

test('an upload has a thumbnail (the embedded one, else scaled once), a preview, its caption and credit', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const db = server.running.ctx.db;
  const project = await setupProject(server, team, 'Pictures');
  const withThumb = readImage('exifr-iptc-staff-photographer-example.jpg');
  const withoutThumb = readImage('IPTC-PhotometadataRef-Std2025.1.jpg');
  await ftpUpload(project.ftpPort, project.account, 'EMBEDDED.JPG', withThumb);
  await ftpUpload(project.ftpPort, project.account, 'SCALED.JPG', withoutThumb);
  await ftpUpload(project.ftpPort, project.account, 'NOTES.TXT', Buffer.from('no picture'));
  // No destination, so no jobs: wait until the uploads are processed.
  await waitForJobs(c, team, project.id, () => true);
  for (let i = 0; i < 200; i++) {
    const open = await db
      .selectFrom('uploads')
      .select('id')
      .where('project_id', '=', project.id)
      .where('state', 'in', ['received', 'processing'])
      .execute();
    if (open.length === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const uploads = await db
    .selectFrom('uploads')
    .select(['id', 'path'])
    .where('project_id', '=', project.id)
    .execute();
  const idOf = (path: string) => uploads.find((u) => u.path === path)?.id ?? 0;
  const base = `/api/${team.teamUuid}/upload`;

  // The camera's own thumbnail, unchanged, and stored with the upload.
  const embedded = exifThumbnail((await readHead(withThumb)).exif ?? Buffer.alloc(0));
  assert.ok(embedded, 'the sample has an embedded thumbnail');
  const small = await c.getBytes(`${base}/${idOf('EMBEDDED.JPG')}/picture?size=small`);
  assert.equal(small.status, 200);
  assert.equal(small.headers.get('content-type'), 'image/jpeg');
  assert.deepEqual(small.bytes, embedded);

  // A picture without one is scaled down once: the second answer comes from the stored file.
  const scaled = await c.getBytes(`${base}/${idOf('SCALED.JPG')}/picture`);
  assert.equal(scaled.status, 200);
  const meta = await sharp(scaled.bytes).metadata();
  assert.deepEqual([meta.format, Math.max(meta.width ?? 0, meta.height ?? 0)], ['jpeg', 160]);
  const row = await db
    .selectFrom('uploads')
    .select(['thumbnail_blob_key', 'preview_blob_key'])
    .where('id', '=', idOf('SCALED.JPG'))
    .executeTakeFirstOrThrow();
  assert.ok(row.thumbnail_blob_key);
  assert.equal(row.preview_blob_key, null, 'the preview is made only when asked for');
  assert.deepEqual((await c.getBytes(`${base}/${idOf('SCALED.JPG')}/picture`)).bytes, scaled.bytes);

  const large = await c.getBytes(`${base}/${idOf('SCALED.JPG')}/picture?size=large`);
  const largeMeta = await sharp(large.bytes).metadata();
  assert.deepEqual([largeMeta.width, largeMeta.height], [960, 480]);
  const caption = await c.get(`${base}/${idOf('SCALED.JPG')}/caption`);
  assert.deepEqual(caption.body, {
    filename: 'SCALED.JPG',
    caption: 'The description aka caption (ref2025.1)',
    credit: 'Credit Line (ref2025.1)',
  });

  // No picture: no content, no error. Bad sizes and other teams' uploads are refused.
  assert.equal((await c.getBytes(`${base}/${idOf('NOTES.TXT')}/picture`)).status, 204);
  assert.equal((await c.getBytes(`${base}/${idOf('SCALED.JPG')}/picture?size=huge`)).status, 400);
  const other = await makeTeam(server);
  assert.equal(
    (await other.owner.client.getBytes(`/api/${other.teamUuid}/upload/${idOf('SCALED.JPG')}/picture`)).status,
    404,
  );

  // Today's pictures, newest first (the photographer's page and the dashboard).
  const since = encodeURIComponent(new Date(Date.now() - 3600_000).toISOString());
  const recent = await c.get<{ uploads: { filename: string; project: string; deliveries: unknown[] }[] }>(
    `/api/${team.teamUuid}/uploads/recent?since=${since}&limit=2`,
  );
  assert.equal(recent.status, 200, JSON.stringify(recent.body));
  assert.deepEqual(
    recent.body.uploads.map((u) => [u.filename, u.project, u.deliveries.length]),
    [
      ['NOTES.TXT', 'Pictures', 0],
      ['SCALED.JPG', 'Pictures', 0],
    ],
  );
  const later = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
  assert.deepEqual((await c.get(`/api/${team.teamUuid}/uploads/recent?since=${later}`)).body, {
    uploads: [],
  });
  assert.equal((await c.get(`/api/${team.teamUuid}/uploads/recent?since=yesterday`)).status, 400);

  // Deleting the project removes the thumbnails with the upload's files.
  const blobs = server.running.ctx.blobs;
  assert.ok(await blobs.exists(row.thumbnail_blob_key));
  assert.equal((await c.del(`/api/${team.teamUuid}/project/${project.id}`)).status, 200);
  assert.equal(await blobs.exists(row.thumbnail_blob_key), false);
});
