import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import pino from 'pino';
import { Client, type SFTPWrapper } from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import { TempDirBackend } from '../../test/support/temp-dir-backend.ts';
import { LoginThrottle } from './login-throttle.ts';
import { type SftpIngest, startSftpIngest } from './sftp-server.ts';

const run = promisify(execFile);
const log = pino({ level: 'silent' });
const MAX = 2_000_000;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-sftp-test-'));
const backend = new TempDirBackend();
let sftpd: SftpIngest;

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ssh2's own client: connection plus SFTP channel. */
async function open(password = 'secret', port = sftpd.port): Promise<{ conn: Client; sftp: SFTPWrapper }> {
  const conn = new Client();
  await new Promise<void>((resolve, reject) => {
    conn.once('ready', resolve);
    conn.once('error', reject);
    conn.connect({
      host: '127.0.0.1',
      port,
      username: 'cam',
      password,
      readyTimeout: 10_000,
      hostVerifier: () => true,
    });
  });
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
    conn.sftp((err, s) => (err ? reject(err) : resolve(s))),
  );
  return { conn, sftp };
}

async function writeFile(sftp: SFTPWrapper, remote: string, data: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const stream = sftp.createWriteStream(remote);
    stream.once('close', () => resolve());
    stream.once('error', reject);
    stream.end(data);
  });
}

async function sftpClient(): Promise<SftpClient> {
  const client = new SftpClient();
  await client.connect({
    host: '127.0.0.1',
    port: sftpd.port,
    username: 'cam',
    password: 'secret',
    readyTimeout: 10_000,
  });
  return client;
}

before(async () => {
  backend.addAccount('cam', 'secret', 1);
  sftpd = await startSftpIngest({
    port: 0,
    host: '127.0.0.1',
    hostKeyDir: path.join(work, 'ssh'),
    maxUploadBytes: MAX,
    backend,
    log,
    loginThrottle: new LoginThrottle({ slowAfter: 100, blockAfter: 100 }),
  });
});

after(async () => {
  await sftpd.close();
  backend.cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('SFTP ingest', () => {
  test('host keys are made once and reused', async () => {
    const files = fs.readdirSync(path.join(work, 'ssh')).sort();
    assert.deepEqual(files, ['ssh_host_ed25519_key', 'ssh_host_rsa_key']);
  });

  test('ssh2 client: stream upload and fastPut, bytes stored equal bytes sent', async () => {
    const { conn, sftp } = await open();
    try {
      const a = crypto.randomBytes(900_000);
      await new Promise<void>((resolve, reject) =>
        sftp.mkdir('/DCIM', (err) => (err ? reject(err) : resolve())),
      );
      await writeFile(sftp, '/DCIM/IMG_0001.JPG', a);
      assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/IMG_0001.JPG'))), sha(a));
      const local = path.join(work, 'fast.jpg');
      const b = crypto.randomBytes(1_500_000);
      fs.writeFileSync(local, b);
      await new Promise<void>((resolve, reject) =>
        sftp.fastPut(local, 'DCIM/fast.jpg', { concurrency: 16, chunkSize: 32768 }, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
      assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/fast.jpg'))), sha(b));
      assert.equal(backend.stored.find((s) => s.path === 'DCIM/fast.jpg')?.protocol, 'sftp');
    } finally {
      conn.end();
    }
  });

  test('ssh2-sftp-client: mkdir -p, put, list, stat, rename, delete; delivered files stay', async () => {
    const client = await sftpClient();
    try {
      await client.mkdir('/DCIM/100NIKON', true);
      await client.put(Buffer.from('hello'), '/DCIM/100NIKON/a.jpg');
      assert.deepEqual(
        (await client.list('/DCIM/100NIKON')).map((e) => [e.name, e.size]),
        [['a.jpg', 5]],
      );
      assert.equal((await client.stat('/DCIM/100NIKON/a.jpg')).size, 5);
      await client.rename('/DCIM/100NIKON/a.jpg', '/DCIM/100NIKON/b.jpg');
      await client.delete('/DCIM/100NIKON/b.jpg');
      assert.deepEqual(await client.list('/DCIM/100NIKON'), []);
      await client.put(Buffer.from('x'), '/DCIM/100NIKON/sent.jpg');
      backend.delivered.add('DCIM/100NIKON/sent.jpg');
      await assert.rejects(client.delete('/DCIM/100NIKON/sent.jpg'), /File already delivered/);
      await assert.rejects(client.get('/DCIM/100NIKON/sent.jpg'), /not offered|denied|unsupported|Failure/i);
      assert.equal(await client.realPath('.'), '/');
    } finally {
      await client.end();
    }
  });

  test('curl (libssh2) sftp upload with --ftp-create-dirs', async () => {
    const file = path.join(work, 'curl.jpg');
    const data = crypto.randomBytes(300_000);
    fs.writeFileSync(file, data);
    await run('curl', [
      '-sS',
      '--max-time',
      '15',
      '-k',
      '--ftp-create-dirs',
      '-T',
      file,
      `sftp://cam:secret@127.0.0.1:${sftpd.port}/DCIM/curl/`,
    ]);
    assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/curl/curl.jpg'))), sha(data));
  });

  test('CLOSE is answered only after storeUpload resolved', async () => {
    backend.storeDelayMs = 300;
    const { conn, sftp } = await open();
    try {
      const started = Date.now();
      await writeFile(sftp, 'slow.jpg', crypto.randomBytes(10_000));
      const answered = Date.now();
      const rec = backend.stored.find((s) => s.path === 'slow.jpg');
      assert.ok(rec && rec.at <= answered);
      assert.ok(answered - started >= 300);
    } finally {
      backend.storeDelayMs = 0;
      conn.end();
    }
  });

  test('paths never leave the root', async () => {
    const client = await sftpClient();
    try {
      for (const target of [
        '../esc1.jpg',
        '/../../esc2.jpg',
        '%2e%2e/esc3.jpg',
        'a/%252e%252e/../../esc4.jpg',
      ]) {
        await assert.rejects(client.put(Buffer.from('x'), target), `${target} must be refused`);
      }
      await assert.rejects(client.mkdir('../esc5'));
      await assert.rejects(client.realPath('..'));
    } finally {
      await client.end();
    }
    assert.deepEqual(backend.violations, []);
    assert.ok(!backend.allFiles().some((f) => f.includes('esc')));
    for (const f of backend.allFiles()) assert.match(f, /^accounts\/1\//);
  });

  test('over the size limit: refused, nothing stored', async () => {
    const { conn, sftp } = await open();
    try {
      await assert.rejects(
        writeFile(sftp, 'huge.jpg', crypto.randomBytes(MAX + 50_000)),
        /storage allocation|Failure/i,
      );
    } finally {
      conn.end();
    }
    await wait(50);
    assert.ok(!backend.stored.some((s) => s.path === 'huge.jpg'));
    assert.ok(!backend.allFiles().some((f) => f.includes('huge')));
  });

  test('connection dropped before CLOSE: nothing stored', async () => {
    const { conn, sftp } = await open();
    const handle = await new Promise<Buffer>((resolve, reject) =>
      sftp.open('dropped.jpg', 'w', (err, h) => (err ? reject(err) : resolve(h))),
    );
    await new Promise<void>((resolve, reject) =>
      sftp.write(handle, crypto.randomBytes(50_000), 0, 50_000, 0, (err) => (err ? reject(err) : resolve())),
    );
    conn.end();
    await wait(200);
    assert.ok(!backend.stored.some((s) => s.path === 'dropped.jpg'));
    assert.ok(backend.discarded.some((d) => d.path === 'dropped.jpg'));
  });

  test('an empty file is acknowledged and never stored', async () => {
    const { conn, sftp } = await open();
    try {
      await writeFile(sftp, 'empty.jpg', Buffer.alloc(0));
    } finally {
      conn.end();
    }
    assert.ok(!backend.stored.some((s) => s.path === 'empty.jpg'));
  });

  test('wrong passwords are slowed, then blocked', async () => {
    const b = new TempDirBackend();
    b.addAccount('cam', 'secret', 1);
    const throttled = await startSftpIngest({
      port: 0,
      host: '127.0.0.1',
      hostKeyDir: path.join(work, 'ssh'),
      maxUploadBytes: MAX,
      backend: b,
      log,
      loginThrottle: new LoginThrottle({ slowAfter: 2, delayStepMs: 150, blockAfter: 4, blockMs: 60_000 }),
    });
    try {
      const attempt = async (password: string) => {
        const started = Date.now();
        try {
          const { conn } = await open(password, throttled.port);
          conn.end();
          return { ok: true, ms: Date.now() - started };
        } catch {
          return { ok: false, ms: Date.now() - started };
        }
      };
      assert.equal((await attempt('wrong')).ok, false);
      await attempt('wrong');
      const slowed = await attempt('wrong');
      assert.ok(slowed.ms >= 140, `slowed: ${slowed.ms} ms`);
      await attempt('wrong');
      assert.equal((await attempt('secret')).ok, false);
      assert.ok(b.sessions.some((s) => s.logins.some((l) => l.reason === 'blocked')));
      assert.ok(b.sessions.every((s) => s.info.protocol === 'sftp'));
    } finally {
      await throttled.close();
      b.cleanup();
    }
  });
});
