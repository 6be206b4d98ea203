import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { errorPositionSeparator, metadataLimits } from '@photorelay/contract/metadata';
import { readJpegMetadata } from '@photorelay/xmp/index';
import { Client } from 'basic-ftp';
import type { TestClient } from '../../../test/support/client.ts';
import { runCommand } from '../../../test/support/commands.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import {
  createProject,
  dataUrl,
  processedUploads,
  readImage,
  withCameraSerial,
} from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { startPipelineWorker } from '../../pipeline/worker.ts';
import { processingSteps } from '../../runtime.ts';

// A random passive range so parallel test processes do not compete for the same ports.
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

type Team = Awaited<ReturnType<typeof makeTeam>>;
interface ProcessedDetail {
  a: number;
  b: string;
  filename: string;
  size: number;
  warnings: string[];
  unknownVariables: string[];
}

const valueAt = (
  values: Array<{ propertytypeids: string; value: string; lang?: string }>,
  ids: string,
  lang?: string,
) => values.find((v) => v.propertytypeids === ids && (lang === undefined || v.lang === lang))?.value;

async function setTemplate(
  client: TestClient,
  team: Team,
  projectId: number,
  values: Array<[string, string]>,
  modes: Array<[string, string]>,
) {
  const base = `/api/${team.teamUuid}/project/${projectId}`;
  for (const [url, value] of values)
    assert.equal((await client.put(`${base}/xmpvalue/${url}`, { value })).status, 200, url);
  for (const [property, mode] of modes)
    assert.equal(
      (await client.put(`${base}/xmpvaluemode/${property}/mode/${mode}`, {})).status,
      200,
      property,
    );
}

async function uploadConfigFile(team: Team, name: string, content: string) {
  const res = await team.owner.client.post(`/api/${team.teamUuid}/file`, {
    name,
    content: dataUrl(Buffer.from(content), 'application/json'),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

describe('processimage', () => {
  test('stamps the test image with the project template, codes and photographers, and offers it for download', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const id = await createProject(server, team);
    await uploadConfigFile(
      team,
      'codes.json',
      JSON.stringify({ gb12: 'Gareth Bale', rm: ['Real Madrid', 'Madrid'] }),
    );
    await uploadConfigFile(team, 'photographers.json', JSON.stringify({ '4021234': 'Jane Doe' }));
    await setTemplate(
      client,
      team,
      id,
      [
        ['headline', 'Test {filenamebase}'],
        ['description', '=gb12= (=rm=) in =rm#2= {unknownthing}'],
        ['description/lang/de', 'Bildunterschrift'],
        ['creditLine', '{photographer}'],
        ['keywords/position/0', 'Fußball'],
        ['keywords/position/1', 'Champions League'],
        ['locationCreated,city/position/0', 'Madrid'],
        ['copyrightNotice', 'not stamped: mode off'],
      ],
      [
        ['headline', 'replace'],
        ['description', 'replace'],
        ['creditLine', 'replace'],
        ['keywords', 'merge'],
        ['locationCreated', 'replace'],
        ['copyrightNotice', 'off'],
      ],
    );
    const image = withCameraSerial(readImage('exiv2-empty.jpg'), '4021234');
    const done = await runCommand<ProcessedDetail>(client, team.teamUuid, 'processimage', {
      dbprojectid: id,
      filename: 'Bild Ä.jpg',
      content: dataUrl(image),
    });
    assert.equal(done.state, 'ok', JSON.stringify(done.detail));
    assert.equal(typeof done.detail.a, 'number');
    assert.ok(done.detail.b.length >= 16);
    assert.deepEqual(done.detail.unknownVariables, ['unknownthing']);

    const url = `/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`;
    const res = await fetch(`${server.url}${url}`, {
      headers: { cookie: `pr_session=${client.cookie('pr_session')}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="Bild _.jpg"; filename*=UTF-8''Bild%20%C3%84.jpg`,
    );
    const stamped = Buffer.from(await res.arrayBuffer());
    assert.equal(stamped.length, done.detail.size);
    const meta = await readJpegMetadata(stamped);
    assert.equal(valueAt(meta.values, 'headline'), 'Test Bild Ä');
    assert.equal(
      valueAt(meta.values, 'description', 'x-default'),
      'Gareth Bale (Real Madrid) in Madrid {unknownthing}',
    );
    assert.equal(valueAt(meta.values, 'description', 'de'), 'Bildunterschrift');
    assert.equal(valueAt(meta.values, 'creditLine'), 'Jane Doe');
    assert.deepEqual(
      meta.values.filter((v) => v.propertytypeids === 'keywords').map((v) => v.value),
      ['Fußball', 'Champions League'],
    );
    assert.equal(valueAt(meta.values, 'locationCreated,city'), 'Madrid');
    assert.equal(
      valueAt(meta.values, 'copyrightNotice'),
      undefined,
      'a property with mode off is not stamped',
    );
    assert.ok(
      meta.iim.some((e) => e.record === 2 && e.dataset === 105 && e.value === 'Test Bild Ä'),
      'IIM headline in sync',
    );

    // Only with the right token, only for the same team.
    const other = await makeTeam(server);
    assert.equal(
      (
        await other.owner.client.get(
          `/api/${other.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`,
        )
      ).status,
      404,
    );
    assert.equal((await other.owner.client.get(url.replace(team.teamUuid, other.teamUuid))).status, 404);
    assert.equal(
      (await client.get(`/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/wrong-token`))
        .status,
      404,
    );
    // A reader of the project may test images too (nothing of the project changes).
    const photographer = await makeMember(server, team, 'Photographer');
    const refused = await photographer.client.post(`/api/${team.teamUuid}/command/processimage`, {
      dbprojectid: id,
      filename: 'a.jpg',
      content: dataUrl(image),
    });
    assert.deepEqual(
      [refused.status, refused.body.error],
      [404, 'NotFound'],
      'a photographer without rights does not see the project',
    );
  });

  test('the download expires', async () => {
    const team = await makeTeam(server);
    const id = await createProject(server, team);
    const done = await runCommand<ProcessedDetail>(team.owner.client, team.teamUuid, 'processimage', {
      dbprojectid: id,
      filename: 'a.jpg',
      content: dataUrl(readImage('exiftool-IPTC.jpg')),
    });
    assert.equal(done.state, 'ok', JSON.stringify(done.detail));
    const url = `/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`;
    assert.equal((await team.owner.client.get(url)).status, 200);
    // Only who started the test downloads it: a colleague with the link gets nothing.
    const colleague = await makeMember(server, team, 'Operator');
    assert.equal((await colleague.client.get(url)).status, 404);
    await server.running.ctx.db
      .updateTable('metadata_test_images')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('team_id', '=', team.teamId)
      .execute();
    assert.equal((await team.owner.client.get(url)).status, 404);

    // The worker's hourly retention removes the expired rows and their files.
    const { ctx } = server.running;
    const rows = await ctx.db
      .selectFrom('metadata_test_images')
      .select(['source_blob_key', 'result_blob_key'])
      .where('team_id', '=', team.teamId)
      .execute();
    const files = rows
      .flatMap((r) => [r.source_blob_key, r.result_blob_key])
      .filter((k): k is string => k !== null)
      // Where the local blob store keeps them.
      .map((k) => path.join(ctx.config.DATA_DIR, 'files', k));
    assert.ok(files.length >= 1 && files.every((f) => fs.existsSync(f)), 'the stamped result is on disk');
    const worker = startPipelineWorker(ctx, {
      steps: processingSteps,
      concurrency: 1,
      leaseSeconds: 30,
      retentionDays: 30,
    });
    await worker.purgeExpired();
    await worker.stop();
    const left = await ctx.db
      .selectFrom('metadata_test_images')
      .select('id')
      .where('team_id', '=', team.teamId)
      .execute();
    assert.deepEqual(left, []);
    assert.ok(
      files.every((f) => !fs.existsSync(f)),
      'the files are gone too',
    );
  });

  test('a file that is no usable JPEG fails with position and message; bad requests are refused', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const id = await createProject(server, team);
    await setTemplate(client, team, id, [['headline', 'x']], [['headline', 'replace']]);
    const notJpeg = await runCommand<string>(client, team.teamUuid, 'processimage', {
      dbprojectid: id,
      filename: 'a.jpg',
      content: dataUrl(Buffer.from('GIF89a...')),
    });
    assert.equal(notJpeg.state, 'error');
    assert.equal(notJpeg.detail, `NOT_JPEG${errorPositionSeparator}not a JPEG file (no FF D8 start marker)`);
    // A segment whose length runs past the end of the file.
    const good = readImage('exiftool-IPTC.jpg');
    const cut = Buffer.concat([
      good.subarray(0, 2),
      Buffer.from([0xff, 0xe1, 0x40, 0x00]),
      Buffer.from('Exif\0\0'),
    ]);
    const truncated = await runCommand<string>(client, team.teamUuid, 'processimage', {
      dbprojectid: id,
      filename: 'a.jpg',
      content: dataUrl(cut),
    });
    assert.equal(truncated.state, 'error');
    const [position, message] = truncated.detail.split(errorPositionSeparator);
    assert.equal(position, 'offset 2');
    assert.match(message ?? '', /file ends inside segment 0xe1 at offset 2/);
    const left = await server.running.ctx.db
      .selectFrom('metadata_test_images')
      .select('id')
      .where('team_id', '=', team.teamId)
      .execute();
    assert.deepEqual(left, [], 'failed test images are removed');

    const post = (body: Record<string, unknown>) =>
      client.post<{ error: string; message?: string }>(`/api/${team.teamUuid}/command/processimage`, {
        dbprojectid: id,
        ...body,
      });
    const wrongType = await post({ filename: 'a.png', content: dataUrl(good) });
    assert.deepEqual([wrongType.status, wrongType.body.error], [400, 'ValidationError']);
    const notDataUrl = await post({ filename: 'a.jpg', content: 'hello' });
    assert.deepEqual([notDataUrl.status, notDataUrl.body.error], [400, 'ValidationError']);
    // Bigger than the default body limit is accepted up to the test image limit; past it, refused.
    const tooLarge = await post({
      filename: 'a.jpg',
      content: dataUrl(Buffer.alloc(metadataLimits.testImageBytes + 1, 0xff)),
    });
    assert.deepEqual([tooLarge.status, tooLarge.body.error], [413, 'PayloadTooLarge']);
    assert.match(tooLarge.body.message ?? '', /larger than 30 MB/);
  });

  test('a broken codes.json is skipped with a warning', async () => {
    const team = await makeTeam(server);
    const id = await createProject(server, team);
    await uploadConfigFile(team, 'codes.json', JSON.stringify({ gb12: 12 }));
    await setTemplate(team.owner.client, team, id, [['headline', '=gb12=']], [['headline', 'replace']]);
    const done = await runCommand<ProcessedDetail>(team.owner.client, team.teamUuid, 'processimage', {
      dbprojectid: id,
      filename: 'a.jpg',
      content: dataUrl(readImage('exiftool-IPTC.jpg')),
    });
    assert.equal(done.state, 'ok', JSON.stringify(done.detail));
    assert.ok(
      done.detail.warnings.some((w) => /^codes\.json ignored: gb12/.test(w)),
      JSON.stringify(done.detail.warnings),
    );
  });
});

describe('upload pipeline', () => {
  async function ftpUpload(team: Team, projectId: number, files: Array<[string, Buffer]>) {
    const project = await team.owner.client.get<{
      project: { ftpAccounts: Array<{ username: string; password: string }> };
    }>(`/api/${team.teamUuid}/project/${projectId}`);
    const account = project.body.project.ftpAccounts[0];
    assert.ok(account);
    const ftp = new Client(10_000);
    try {
      await ftp.access({
        host: '127.0.0.1',
        port: server.running.ingest?.ftpPort,
        user: account.username,
        password: account.password,
      });
      for (const [name, bytes] of files) await ftp.uploadFrom(Readable.from([bytes]), name);
    } finally {
      ftp.close();
    }
  }

  const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

  test('a JPEG arriving over FTP is stamped before delivery; other files and broken JPEGs pass unchanged', async () => {
    const team = await makeTeam(server);
    const id = await createProject(server, team);
    await setTemplate(
      team.owner.client,
      team,
      id,
      [
        ['headline', 'Pipeline {filenamebase}'],
        ['cityName', 'Dortmund'],
        ['keywords/position/0', 'Ingest'],
      ],
      [
        ['headline', 'replace'],
        ['cityName', 'replace'],
        ['keywords', 'merge'],
      ],
    );
    const reference = readImage('IPTC-PhotometadataRef-Std2025.1.jpg');
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00]), Buffer.from('Exif')]);
    const text = Buffer.from('not a picture');
    await ftpUpload(team, id, [
      ['IMG_0001.jpg', reference],
      ['notes.txt', text],
      ['broken.jpg', broken],
    ]);
    const uploads = await processedUploads(server, id, 3);

    const jpeg = uploads.get('IMG_0001.jpg');
    assert.ok(jpeg?.processed_blob_key);
    assert.notEqual(jpeg.processed_blob_key, jpeg.blob_key);
    assert.equal(jpeg.sha256, sha(reference), 'the original is kept as received');
    assert.deepEqual((jpeg.processing_detail as { metadata: { applied: number } }).metadata.applied, 3);
    const meta = await readJpegMetadata(server.running.ctx.blobs.read(jpeg.processed_blob_key));
    assert.equal(valueAt(meta.values, 'headline'), 'Pipeline IMG_0001');
    assert.equal(valueAt(meta.values, 'cityName'), 'Dortmund');
    const keywords = meta.values.filter((v) => v.propertytypeids === 'keywords').map((v) => v.value);
    assert.equal(keywords.at(-1), 'Ingest');
    assert.ok(keywords.length > 1, 'merge keeps the picture’s own keywords');
    assert.ok(valueAt(meta.values, 'copyrightNotice'), 'untouched properties stay');

    const other = uploads.get('notes.txt');
    assert.ok(other);
    assert.equal(other.processed_blob_key, other.blob_key);
    assert.deepEqual(other.processing_detail, { metadata: 'not a JPEG: passed unchanged' });

    const bad = uploads.get('broken.jpg');
    assert.ok(bad);
    assert.equal(bad.processed_blob_key, bad.blob_key, 'a failed stamp keeps the original');
    assert.equal(bad.processed_sha256, sha(broken));
    assert.match(
      (bad.processing_detail as { metadata: { error: string } }).metadata.error,
      /file ends inside segment/,
    );
    const partials = fs.readdirSync(path.join(server.running.ctx.config.DATA_DIR, 'files', 'tmp'));
    assert.deepEqual(partials, [], 'no partial stamped file is left behind');
  });

  test('a stamped file is hashed only when it enters another project, with the hash of its bytes', async () => {
    const team = await makeTeam(server);
    const id = await createProject(server, team, 'Stamped here');
    const target = await createProject(server, team, 'Hashed there');
    const linked = await team.owner.client.post(
      `/api/${team.teamUuid}/project/${id}/destinationproject/${target}`,
    );
    assert.equal(linked.status, 200);
    await setTemplate(team.owner.client, team, id, [['headline', 'Hashed later']], [['headline', 'replace']]);
    const image = readImage('exiftool-IPTC.jpg');
    await ftpUpload(team, id, [['hashed.jpg', image]]);
    const stamped = (await processedUploads(server, id, 1)).get('hashed.jpg');
    assert.ok(stamped?.processed_blob_key);
    assert.notEqual(stamped.processed_blob_key, stamped.blob_key);
    assert.equal(stamped.processed_sha256, null, 'stamping takes no hash');
    const arrived = (await processedUploads(server, target, 1)).get('hashed.jpg');
    assert.ok(arrived);
    const chunks: Buffer[] = [];
    for await (const chunk of server.running.ctx.blobs.read(arrived.blob_key)) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    assert.notEqual(sha(bytes), sha(image), 'the stamped file, not the original');
    assert.equal(arrived.sha256, sha(bytes));
  });

  test('a project without metadata passes files unchanged', async () => {
    const team = await makeTeam(server);
    const id = await createProject(server, team);
    await setTemplate(team.owner.client, team, id, [['headline', 'only a value, no mode']], []);
    const image = readImage('exiftool-IPTC.jpg');
    await ftpUpload(team, id, [['plain.jpg', image]]);
    const upload = (await processedUploads(server, id, 1)).get('plain.jpg');
    assert.ok(upload);
    assert.equal(upload.processed_blob_key, upload.blob_key);
    assert.equal(upload.processed_sha256, sha(image));
    assert.equal((upload.processing_detail as Record<string, unknown>).metadata, undefined);
  });
});
