import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import SftpClient from 'ssh2-sftp-client';
import { ftpUpload } from '../../test/support/camera.ts';
import { runCommand } from '../../test/support/commands.ts';
import { makeTeam } from '../../test/support/factories.ts';
import { dataUrl, readImage } from '../../test/support/metadata.ts';
import { setupProject, storeScript } from '../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 25 (low): right-to-left overrides and other bidirectional controls in file names were
// delivered as they came ('IMG\u202Egpj.JPG' shows as 'IMGJPG.jpg'). Ingest replaces them by '_'
// (the camera's picture is kept); a script's file.name with one is refused.

const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

test('bidirectional controls in names from FTP and SFTP are replaced by _, the pictures kept', async () => {
  const team = await makeTeam(server);
  const project = await setupProject(server, team, 'Bidi');
  const picture = readImage('exiftool-XMP.jpg');
  await ftpUpload(project.ftpPort, project.account, 'DCIM\u202B/IMG\u202Egpj.JPG', picture);
  const sftp = new SftpClient();
  await sftp.connect({
    host: '127.0.0.1',
    port: server.running.ingest?.sftpPort,
    username: project.account.username,
    password: project.account.password,
  });
  try {
    await sftp.put(Buffer.from(picture), '/\u2066x\u2069\u202A\u202C\u202D\u2067\u2068.JPG');
  } finally {
    await sftp.end();
  }
  let rows: { path: string; filename: string }[] = [];
  for (let i = 0; i < 200 && rows.length < 2; i++) {
    rows = await server.running.ctx.db
      .selectFrom('uploads')
      .select(['path', 'filename'])
      .where('project_id', '=', project.id)
      .orderBy('id')
      .execute();
    if (rows.length < 2) await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(
    rows.map((r) => [r.path, r.filename]),
    [
      ['DCIM_/IMG_gpj.JPG', 'IMG_gpj.JPG'],
      ['_x______.JPG', '_x______.JPG'],
    ],
  );
  assert.ok(!rows.some((r) => bidi.test(r.path + r.filename)));
});

test("a script's file.name with a right-to-left override is refused with a reason", async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const project = await setupProject(server, team, 'Bidi script');
  await storeScript(c, team, { dbprojectid: project.id }, "file.name = 'invoice\\u202Egpj.exe';");
  const done = await runCommand<unknown>(c, team.teamUuid, 'processimage', {
    dbprojectid: project.id,
    filename: 'IMG_1.jpg',
    content: dataUrl(readImage('exiftool-XMP.jpg')),
  });
  const text = JSON.stringify(done);
  assert.match(text, /is not a valid file name/, text);
  assert.ok(!text.includes('"filename":"invoice\\u202egpj.exe"'), text);
});
