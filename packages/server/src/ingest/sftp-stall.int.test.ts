import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, type SFTPWrapper } from 'ssh2';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 29 item 5: a stalled SFTP upload was kept 420 s and then accepted as complete. Like FTP's
// 426, an upload that receives no data for SFTP_UPLOAD_STALL_SECONDS is discarded: its CLOSE
// fails and nothing is recorded or delivered. A slow upload that keeps sending is not stalled.

let server: TestServer;
const clients: Client[] = [];
before(async () => {
  server = await startTestServer({ SFTP_UPLOAD_STALL_SECONDS: '3' });
});
after(async () => {
  for (const c of clients) c.end();
  await server.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(account: { username: string; password: string }): Promise<SFTPWrapper> {
  const conn = new Client();
  clients.push(conn);
  await new Promise<void>((resolve, reject) => {
    conn.once('ready', resolve);
    conn.once('error', reject);
    conn.connect({
      host: '127.0.0.1',
      port: server.running.ingest?.sftpPort,
      username: account.username,
      password: account.password,
      readyTimeout: 20_000,
      hostVerifier: () => true,
    });
  });
  return new Promise((resolve, reject) => conn.sftp((err, s) => (err ? reject(err) : resolve(s))));
}

const openFile = (sftp: SFTPWrapper, name: string) =>
  new Promise<Buffer>((resolve, reject) =>
    sftp.open(name, 'w', (err, h) => (err ? reject(err) : resolve(h))),
  );
const write = (sftp: SFTPWrapper, handle: Buffer, data: Buffer, position: number) =>
  new Promise<void>((resolve, reject) =>
    sftp.write(handle, data, 0, data.length, position, (err) => (err ? reject(err) : resolve())),
  );
const close = (sftp: SFTPWrapper, handle: Buffer) =>
  new Promise<void>((resolve, reject) => sftp.close(handle, (err) => (err ? reject(err) : resolve())));

async function project(name: string) {
  const { projectId, account } = await makeProjectWithServer(server, await makeTeam(server), name);
  if (!account) throw new Error('project without an account');
  return { projectId, account };
}

const uploadsOf = (projectId: number) =>
  server.running.ctx.db
    .selectFrom('uploads')
    .select(['filename', 'size'])
    .where('project_id', '=', projectId)
    .execute();

test('an SFTP upload that stops sending mid-file is discarded: CLOSE fails, nothing is recorded', async () => {
  const { projectId, account } = await project('Stalled SFTP');
  const sftp = await connect(account);
  const handle = await openFile(sftp, 'IMG_0001.JPG');
  const half = crypto.randomBytes(256 * 1024);
  await write(sftp, handle, half, 0);
  // The camera stops sending (its network went) for well over the 3 s limit, then comes back.
  await sleep(8_000);
  await assert.rejects(write(sftp, handle, crypto.randomBytes(64 * 1024), half.length), /stalled/);
  await assert.rejects(close(sftp, handle), /Upload stalled \(no data for 3 s\) and was discarded/);
  await sleep(500);
  assert.deepEqual(await uploadsOf(projectId), [], 'no partial file recorded (or delivered)');
  // The connection works on: the same file uploaded again is stored whole.
  const whole = crypto.randomBytes(300 * 1024);
  const again = await openFile(sftp, 'IMG_0001.JPG');
  await write(sftp, again, whole, 0);
  await close(sftp, again);
  const stored = await uploadsOf(projectId);
  assert.equal(stored.length, 1);
  assert.equal(Number(stored[0]?.size), whole.length);
});

test('a slow SFTP upload that keeps sending is not cut off', async () => {
  const { projectId, account } = await project('Slow SFTP');
  const sftp = await connect(account);
  const handle = await openFile(sftp, 'IMG_0002.JPG');
  const chunk = crypto.randomBytes(16 * 1024);
  // A write a second for 6 s: longer than the 3 s limit in all, never 3 s without data.
  for (let i = 0; i < 6; i++) {
    await write(sftp, handle, chunk, i * chunk.length);
    await sleep(1_000);
  }
  await close(sftp, handle);
  const stored = await uploadsOf(projectId);
  assert.equal(stored.length, 1);
  assert.equal(Number(stored[0]?.size), 6 * chunk.length);
});
