import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { Client, type SFTPWrapper } from 'ssh2';
import { TempDirBackend } from '../../test/support/temp-dir-backend.ts';
import { type SftpIngest, startSftpIngest } from './sftp-server.ts';

// Issue 10 item 7: out-of-order WRITEs on many handles must not grow the server's memory.

const KiB = 1024;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-sftp-limits-'));
const backend = new TempDirBackend();
let sftpd: SftpIngest;
const clients: Client[] = [];

before(async () => {
  backend.addAccount('cam', 'secret', 1);
  sftpd = await startSftpIngest({
    port: 0,
    host: '127.0.0.1',
    hostKeyDir: path.join(work, 'ssh'),
    maxUploadBytes: 100 * 1024 * KiB,
    backend,
    log: pino({ level: 'silent' }),
    limits: { reorderBytesPerConnection: 1024 * KiB, reorderBytesTotal: 1536 * KiB, handlesPerConnection: 4 },
  });
});
after(async () => {
  for (const c of clients) c.end();
  await sftpd.close();
  backend.cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

async function connect(): Promise<SFTPWrapper> {
  const conn = new Client();
  clients.push(conn);
  await new Promise<void>((resolve, reject) => {
    conn.once('ready', resolve);
    conn.once('error', reject);
    conn.connect({
      host: '127.0.0.1',
      port: sftpd.port,
      username: 'cam',
      password: 'secret',
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

const closeHandle = (sftp: SFTPWrapper, handle: Buffer) =>
  new Promise<void>((resolve) => sftp.close(handle, () => resolve()));

/** Writes 64 KiB blocks at 64 KiB, 128 KiB, … (never offset 0: all of them wait for it) until one is refused. */
async function writeAheadUntilRefused(sftp: SFTPWrapper, handle: Buffer, blocks: number) {
  const block = Buffer.alloc(64 * KiB, 1);
  for (let i = 1; i <= blocks; i++) {
    try {
      await write(sftp, handle, block, i * 64 * KiB);
    } catch (err) {
      return { accepted: i - 1, error: err as Error & { code?: number } };
    }
    assert.ok(sftpd.bufferedBytes() <= 1536 * KiB, `buffered ${sftpd.bufferedBytes()} bytes`);
  }
  return { accepted: blocks, error: undefined };
}

test('out-of-order writes are buffered up to the connection limit, then refused with an SFTP error', async () => {
  const sftp = await connect();
  const handle = await openFile(sftp, 'ahead.jpg');
  const { accepted, error } = await writeAheadUntilRefused(sftp, handle, 40);
  assert.equal(accepted, 16, '1 MiB of 64 KiB blocks');
  assert.equal(error?.code, 4, 'SSH_FX_FAILURE');
  assert.match(error?.message ?? '', /Writes too far out of order/);
  assert.equal(sftpd.bufferedBytes(), 0, 'a refused upload frees what it held');
  await closeHandle(sftp, handle);
});

test('many connections together stay within the overall limit', async () => {
  const first = await connect();
  const second = await connect();
  const h1 = await openFile(first, 'one.jpg');
  const h2 = await openFile(second, 'two.jpg');
  assert.equal((await writeAheadUntilRefused(first, h1, 12)).accepted, 12); // 768 KiB held
  const { accepted, error } = await writeAheadUntilRefused(second, h2, 16);
  assert.equal(accepted, 12, 'only what is left of 1.5 MiB');
  assert.match(error?.message ?? '', /buffer limit/);
  assert.equal(sftpd.bufferedBytes(), 768 * KiB);
  await closeHandle(first, h1);
  await closeHandle(second, h2);
  assert.equal(sftpd.bufferedBytes(), 0);
});

test('open handles per connection are capped', async () => {
  const sftp = await connect();
  const handles = [];
  for (let i = 0; i < 4; i++) handles.push(await openFile(sftp, `h${i}.jpg`));
  await assert.rejects(openFile(sftp, 'h4.jpg'), (err: Error & { code?: number }) => {
    assert.equal(err.code, 4);
    assert.match(err.message, /Too many open handles/);
    return true;
  });
  await closeHandle(sftp, handles[0] as Buffer);
  handles[0] = await openFile(sftp, 'h4.jpg');
  // The whole upload still works within the limits, in order.
  const h = handles[1] as Buffer;
  await write(sftp, h, Buffer.alloc(100 * KiB, 2), 0);
  await closeHandle(sftp, h);
  assert.equal(fs.statSync(backend.fileOf(1, 'h1.jpg')).size, 100 * KiB);
});
