import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { Client as FtpClient } from 'basic-ftp';
import { ftpUpload } from '../../test/support/camera.ts';
import { startFtpDestination, type TempDirDestination } from '../../test/support/destinations.ts';
import { type PreparedData, prepareData } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';
import { openDatabase } from '../db/kysely.ts';

// Issue 29 item 6: after kill -9, files no row refers to stayed for ever (58 files, 24 MB on the
// embedded database; 111 files and 47 temp files on PostgreSQL). The server killed in the middle
// of uploads, started again: its sweep removes every file no row refers to, keeps every one a
// row does, and no job reads "succeeded" without its try.

let data: PreparedData;
let server: ServerProcess;
let destination: TempDirDestination;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  data = await prepareData();
  destination = await startFtpDestination();
  server = await serverProcess({
    dataDir: data.dataDir,
    databaseUrl: data.databaseUrl,
    env: { ORPHAN_FILE_AGE_SECONDS: '3' },
  });
  await server.start();
});
after(async () => {
  await server?.stop();
  await destination?.close();
  await data?.remove();
});

/** An upload that sends 64 KiB every 100 ms: still running when the server is killed. */
async function slowUpload(port: number, account: { username: string; password: string }, name: string) {
  const client = new FtpClient(30_000);
  try {
    await client.access({ host: '127.0.0.1', port, user: account.username, password: account.password });
    async function* chunks() {
      for (let i = 0; i < 100; i++) {
        yield crypto.randomBytes(64 * 1024);
        await sleep(100);
      }
    }
    await client.uploadFrom(Readable.from(chunks()), name);
  } catch {
    // The server was killed under it.
  } finally {
    client.close();
  }
}

/** The files under DATA_DIR/files (relative), without the temp folder. */
function storedFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((p) => !p.startsWith('tmp') && fs.statSync(path.join(root, p)).isFile())
    .map((p) => p.split(path.sep).join('/'));
}

test('after kill -9 mid-upload, the sweep at start leaves no file without its row and keeps every other', {
  timeout: 240_000,
}, async () => {
  const owner = await server.login(data.team.email, data.team.password);
  const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;
  const created = await owner.post<{ projectId: number }>(api('/project'), {
    name: 'Crash leftovers',
    parentFolderId: data.team.projectsRootId,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const projectId = created.body.projectId;
  const server0 = await owner.post<{ ftpserverid: number }>(api('/ftpserver'), {
    name: 'Agency',
    host: '127.0.0.1',
    port: destination.port,
    protocol: 'ftp',
    username: destination.username,
    password: destination.password,
    path: 'in',
    parentFolderId: data.team.ftpserversRootId,
  });
  assert.equal(server0.status, 200, JSON.stringify(server0.body));
  await owner.post(api(`/project/${projectId}/ftpserver/${server0.body.ftpserverid}`));
  const project = await owner.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(api(`/project/${projectId}`));
  const account = project.body.project.ftpAccounts[0];
  assert.ok(account);

  // Some pictures stored and acknowledged, then some uploads under way when the server is killed.
  for (let i = 0; i < 5; i++)
    await ftpUpload(server.ftpPort, account, `DONE_${i}.JPG`, crypto.randomBytes(100_000 + i));
  const slow = [0, 1, 2, 3].map((i) => slowUpload(server.ftpPort, account, `SLOW_${i}.JPG`));
  await sleep(2_000);
  await server.kill('SIGKILL');
  await Promise.all(slow);

  const filesRoot = path.join(data.dataDir, 'files');
  const tmpDir = path.join(filesRoot, 'tmp');
  const leftTemp = fs.readdirSync(tmpDir);
  assert.ok(leftTemp.length > 0, 'the kill left temp files (uploads under way)');

  // Older than ORPHAN_FILE_AGE_SECONDS (3 s) by the time the server is back.
  await sleep(4_000);
  await server.start();
  for (let i = 0; i < 300 && fs.readdirSync(tmpDir).length > 0; i++) await sleep(100);
  assert.deepEqual(fs.readdirSync(tmpDir), [], 'the temp files a kill left are gone');
  await sleep(1_000);
  await server.stop();

  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  try {
    const uploads = await db
      .selectFrom('uploads')
      .select(['filename', 'blob_key', 'processed_blob_key', 'thumbnail_blob_key', 'preview_blob_key'])
      .execute();
    for (let i = 0; i < 5; i++)
      assert.ok(
        uploads.some((u) => u.filename === `DONE_${i}.JPG`),
        `acknowledged upload DONE_${i}.JPG recorded`,
      );
    const referenced = new Set(
      uploads.flatMap((u) =>
        [u.blob_key, u.processed_blob_key, u.thumbnail_blob_key, u.preview_blob_key].filter(
          (k): k is string => k !== null,
        ),
      ),
    );
    const keyOf = (file: string) => file.replace(/\.(head|data)$/, '');
    const orphans = storedFiles(filesRoot).filter((file) => !referenced.has(keyOf(file)));
    assert.deepEqual(orphans, [], 'no file without a row');
    for (const key of referenced) {
      const files = /\.\d+$/.test(key) ? [`${key}.head`, `${key}.data`] : [key];
      for (const file of files)
        assert.ok(fs.existsSync(path.join(filesRoot, file)), `${file} of a row is kept`);
    }
    const succeededWithoutTry = await db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'succeeded')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('job_tries').select('job_tries.id').whereRef('job_tries.job_id', '=', 'jobs.id')),
        ),
      )
      .execute();
    assert.deepEqual(succeededWithoutTry, [], 'no job succeeded without its try');
  } finally {
    await db.destroy();
  }
});
