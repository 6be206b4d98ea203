import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { Client, type FTPError } from 'basic-ftp';
import pino from 'pino';
import { type FtpIngest, startFtpIngest } from './ftp-server.ts';
import { LoginThrottle } from './login-throttle.ts';
import { TempDirBackend } from './temp-dir-backend.test-support.ts';
import { loadOrCreateTlsMaterial } from './tls.ts';

const run = promisify(execFile);
const log = pino({ level: 'silent' });
const MAX = 2_000_000;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-ftp-test-'));
const backend = new TempDirBackend();
let ftp: FtpIngest;
// A random passive range so parallel test files do not compete for the same ports.
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;

function sha(data: Buffer | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

function picture(bytes: number): Buffer {
  return crypto.randomBytes(bytes);
}

async function connect(
  options: { secure?: boolean | 'implicit'; password?: string; port?: number } = {},
): Promise<Client> {
  const client = new Client(10_000);
  await client.access({
    host: '127.0.0.1',
    port: options.port ?? (options.secure === 'implicit' ? ftp.implicitPort : ftp.port),
    user: 'cam',
    password: options.password ?? 'secret',
    secure: options.secure ?? false,
    secureOptions: { rejectUnauthorized: false },
  });
  return client;
}

/** A bare FTP control connection, to do what polite clients never do. */
class RawFtp {
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly socket: net.Socket;
  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => {
      this.buffer += d;
      for (const w of this.waiters.splice(0)) w();
    });
    this.socket.on('error', () => {});
  }
  /** Next complete reply (multi-line replies joined). */
  async reply(timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = /^(\d{3})(?:-[\s\S]*?\r\n\1 .*\r\n| .*\r\n)/.exec(this.buffer);
      if (m) {
        this.buffer = this.buffer.slice(m[0].length);
        return m[0].trim();
      }
      if (Date.now() > deadline) throw new Error(`no reply; have ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
  async cmd(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }
  async login(): Promise<void> {
    assert.match(await this.reply(), /^220/);
    assert.match(await this.cmd('USER cam'), /^331/);
    assert.match(await this.cmd('PASS secret'), /^230/);
    assert.match(await this.cmd('TYPE I'), /^200/);
  }
  async passiveData(): Promise<net.Socket> {
    const r = await this.cmd('EPSV');
    const port = Number(/\(\|\|\|(\d+)\|\)/.exec(r)?.[1]);
    const data = net.connect(port, '127.0.0.1');
    data.on('error', () => {});
    await new Promise((resolve) => data.once('connect', resolve));
    return data;
  }
  close(): void {
    this.socket.destroy();
  }
}

/** NLST over a bare connection (basic-ftp only does LIST/MLSD). */
async function nlst(dir: string): Promise<string[]> {
  const raw = new RawFtp(ftp.port);
  try {
    await raw.login();
    const data = await raw.passiveData();
    let text = '';
    data.setEncoding('utf8');
    data.on('data', (d: string) => {
      text += d;
    });
    const closed = new Promise((resolve) => data.once('close', resolve));
    raw.socket.write(`NLST ${dir}\r\n`);
    assert.match(await raw.reply(), /^150/);
    assert.match(await raw.reply(), /^226/);
    await closed;
    return text.split('\r\n').filter(Boolean);
  } finally {
    raw.close();
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  backend.addAccount('cam', 'secret', 1);
  backend.addAccount('other', 'secret2', 2);
  ftp = await startFtpIngest({
    port: 0,
    host: '127.0.0.1',
    pasvRange: [pasvMin, pasvMin + 99],
    tls: await loadOrCreateTlsMaterial({ dataDir: work }),
    implicitTlsPort: 0,
    maxUploadBytes: MAX,
    backend,
    log,
    loginThrottle: new LoginThrottle({ slowAfter: 100, blockAfter: 100 }),
  });
});

after(async () => {
  await ftp.close();
  backend.cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('FTP ingest: uploads from real clients', () => {
  test('basic-ftp, plain FTP, into camera folders made on the way', async () => {
    const data = picture(700_000);
    const client = await connect();
    try {
      await client.ensureDir('/DCIM/100CANON');
      await client.uploadFrom(Readable.from([data]), 'IMG_0001.JPG');
    } finally {
      client.close();
    }
    const rec = backend.stored.find((s) => s.path === 'DCIM/100CANON/IMG_0001.JPG');
    assert.equal(rec?.bytes, data.length);
    assert.equal(rec?.protocol, 'ftp');
    assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/100CANON/IMG_0001.JPG'))), sha(data));
  });

  test('basic-ftp, explicit FTPS (AUTH TLS, PROT P), self-signed certificate', async () => {
    const data = picture(300_000);
    const client = await connect({ secure: true });
    try {
      await client.ensureDir('DCIM/100NIKON');
      await client.uploadFrom(Readable.from([data]), 'DSC_0001.JPG');
    } finally {
      client.close();
    }
    const rec = backend.stored.find((s) => s.path === 'DCIM/100NIKON/DSC_0001.JPG');
    assert.equal(rec?.bytes, data.length);
    assert.equal(rec?.protocol, 'ftps');
    const session = backend.sessions.find((s) => s.entries.some((e) => e.text.includes('DSC_0001.JPG')));
    assert.equal(session?.tls, true);
  });

  test('basic-ftp, implicit FTPS', async () => {
    const data = picture(200_000);
    const client = await connect({ secure: 'implicit' });
    try {
      await client.uploadFrom(Readable.from([data]), 'implicit.jpg');
    } finally {
      client.close();
    }
    assert.equal(backend.stored.find((s) => s.path === 'implicit.jpg')?.bytes, data.length);
  });

  test('curl: plain with --ftp-create-dirs, and --ssl-reqd', async () => {
    const file = path.join(work, 'curl.jpg');
    const data = picture(500_000);
    fs.writeFileSync(file, data);
    await run('curl', [
      '-sS',
      '--max-time',
      '15',
      '-T',
      file,
      `ftp://cam:secret@127.0.0.1:${ftp.port}/DCIM/101CANON/`,
      '--ftp-create-dirs',
    ]);
    await run('curl', [
      '-sS',
      '--max-time',
      '15',
      '-T',
      file,
      `ftp://cam:secret@127.0.0.1:${ftp.port}/DCIM/101CANON/tls.jpg`,
      '--ssl-reqd',
      '-k',
    ]);
    assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/101CANON/curl.jpg'))), sha(data));
    assert.equal(backend.stored.find((s) => s.path === 'DCIM/101CANON/tls.jpg')?.protocol, 'ftps');
  });

  test('lftp with forced TLS', async () => {
    const file = path.join(work, 'lftp.jpg');
    const data = picture(400_000);
    fs.writeFileSync(file, data);
    const script = [
      'set ssl:verify-certificate no',
      'set ftp:ssl-force true',
      'set ftp:ssl-protect-data true',
      'set net:max-retries 1',
      'set net:timeout 10',
      'mkdir -p DCIM/102SONY',
      `put ${file} -o DCIM/102SONY/lftp.jpg`,
      'bye',
    ].join('; ');
    await run('lftp', ['-u', 'cam,secret', '-p', String(ftp.port), '-e', script, '127.0.0.1'], {
      timeout: 20_000,
    });
    assert.equal(sha(fs.readFileSync(backend.fileOf(1, 'DCIM/102SONY/lftp.jpg'))), sha(data));
  });

  test('TLS 1.2 with ECDHE only (CBC for old camera bodies, GCM); plain-RSA key exchange is refused', async () => {
    const handshake = (cipher: string) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        port: ftp.implicitPort,
        ciphers: cipher,
        rejectUnauthorized: false,
      });
      return new Promise<tls.TLSSocket>((resolve, reject) => {
        socket.once('secureConnect', () => resolve(socket));
        socket.once('error', reject);
      });
    };
    for (const cipher of ['ECDHE-RSA-AES256-SHA', 'ECDHE-RSA-AES128-GCM-SHA256']) {
      const socket = await handshake(cipher);
      assert.equal(socket.getCipher().name, cipher);
      assert.equal(socket.getProtocol(), 'TLSv1.2');
      socket.destroy();
    }
    await assert.rejects(handshake('AES256-SHA'), /handshake failure/);
  });

  test('AUTH TLS: a TLS hello sent the instant 234 arrives is never read as a command', async () => {
    // curl does this; ftp-srv's own AUTH wrapped the socket a turn too late (about 1 in 4 failed).
    for (let i = 0; i < 20; i++) {
      const plain = net.connect(ftp.port, '127.0.0.1');
      let seen = '';
      let asked = false;
      await new Promise<void>((resolve, reject) => {
        plain.on('error', reject);
        plain.on('data', (d: Buffer) => {
          seen += d.toString();
          if (/^220 /m.test(seen) && !asked) {
            asked = true;
            plain.write('AUTH TLS\r\n');
          } else if (/^234 /m.test(seen)) {
            plain.removeAllListeners('data');
            resolve();
          }
        });
      });
      const secure = tls.connect({ socket: plain, rejectUnauthorized: false });
      await new Promise((resolve, reject) => {
        secure.once('secureConnect', resolve);
        secure.once('error', reject);
      });
      secure.write('NOOP\r\n');
      const reply = await new Promise<string>((resolve) =>
        secure.once('data', (d: Buffer) => resolve(d.toString())),
      );
      assert.match(reply, /^200 /);
      secure.destroy();
    }
  });

  test('226 comes only after storeUpload resolved', async () => {
    backend.storeDelayMs = 300;
    const client = await connect();
    try {
      const started = Date.now();
      await client.uploadFrom(Readable.from([picture(50_000)]), 'slow.jpg');
      const answered = Date.now();
      const rec = backend.stored.find((s) => s.path === 'slow.jpg');
      assert.ok(rec, 'recorded before the client saw 226');
      assert.ok(rec.at <= answered);
      assert.ok(answered - started >= 300);
    } finally {
      backend.storeDelayMs = 0;
      client.close();
    }
  });
});

describe('FTP ingest: camera habits', () => {
  test('SIZE, MDTM, LIST, NLST, RNFR/RNTO, DELE; delivered files stay', async () => {
    const client = await connect();
    try {
      await client.ensureDir('/habits');
      await client.uploadFrom(Readable.from([picture(1234)]), 'a.jpg');
      assert.equal(await client.size('a.jpg'), 1234);
      assert.ok((await client.lastMod('a.jpg')).getTime() > Date.now() - 60_000);
      assert.deepEqual(
        (await client.list()).map((f) => f.name),
        ['a.jpg'],
      );
      await client.rename('a.jpg', 'b.jpg');
      assert.deepEqual(await nlst('/habits'), ['b.jpg']);
      await client.remove('b.jpg');
      assert.equal((await client.list()).length, 0);

      await client.uploadFrom(Readable.from([picture(10)]), 'sent.jpg');
      backend.delivered.add('habits/sent.jpg');
      await assert.rejects(client.remove('sent.jpg'), /550 File already delivered/);
      await assert.rejects(client.rename('sent.jpg', 'x.jpg'), /550 File already delivered/);
    } finally {
      client.close();
    }
  });

  test('APPE and STOU are refused with 502, REST > 0 with 504', async () => {
    const client = await connect();
    try {
      await assert.rejects(
        client.appendFrom(Readable.from([picture(10)]), 'append.jpg'),
        (err: FTPError) => err.code === 502,
      );
      await assert.rejects(client.send('STOU'), (err: FTPError) => err.code === 502);
      await assert.rejects(client.send('REST 100'), (err: FTPError) => err.code === 504);
      assert.equal((await client.send('REST 0')).code, 350);
      await assert.rejects(client.send('RETR implicit.jpg'), (err: FTPError) => err.code === 502);
    } finally {
      client.close();
    }
    assert.ok(!backend.stored.some((s) => s.path === 'append.jpg'));
  });

  test('an empty file is answered 226 but never stored', async () => {
    const client = await connect();
    try {
      const res = await client.uploadFrom(Readable.from([]), 'empty.jpg');
      assert.equal(res.code, 226);
    } finally {
      client.close();
    }
    assert.ok(!backend.stored.some((s) => s.path === 'empty.jpg'));
  });

  test('the connection log has commands and replies, never the password', () => {
    const all = backend.sessions.flatMap((s) => s.entries.map((e) => e.text));
    assert.ok(all.includes('PASS ****'));
    assert.ok(all.some((t) => t.startsWith('226 ')));
    assert.ok(!all.some((t) => t.includes('secret')));
    assert.ok(backend.sessions.filter((s) => s.ended).length > 0);
  });
});

describe('FTP ingest: nothing leaves the root', () => {
  test('.., absolute, percent-encoded and NUL paths', async () => {
    const client = await connect();
    try {
      await assert.rejects(client.cd('..'), /550/);
      await assert.rejects(client.cd('/../..'), /550/);
      await assert.rejects(client.uploadFrom(Readable.from([picture(10)]), '../escape1.jpg'), /553/);
      await assert.rejects(client.uploadFrom(Readable.from([picture(10)]), '/../../escape2.jpg'), /553/);
      await assert.rejects(client.uploadFrom(Readable.from([picture(10)]), '%2e%2e/escape3.jpg'), /553/);
      await assert.rejects(
        client.uploadFrom(Readable.from([picture(10)]), 'a/%252E%252E/%2e%2e/escape4.jpg'),
        /553/,
      );
      await assert.rejects(client.uploadFrom(Readable.from([picture(10)]), '..\\escape5.jpg'), /553/);
      await assert.rejects(client.send('MKD ../escape6'), /550/);
      await assert.rejects(client.rename('/implicit.jpg', '../../escape7.jpg'), /550/);
      // Absolute paths are absolute within the account's root.
      await client.uploadFrom(Readable.from([picture(10)]), '/DCIM/../root-abs.jpg');
    } finally {
      client.close();
    }
    const raw = new RawFtp(ftp.port);
    try {
      await raw.login();
      assert.match(await raw.cmd('MKD a\u0000b'), /^550/);
      assert.match(await raw.cmd('CWD /\u0000'), /^550/);
    } finally {
      raw.close();
    }
    assert.deepEqual(backend.violations, []);
    assert.ok(fs.existsSync(backend.fileOf(1, 'root-abs.jpg')));
    for (const file of backend.allFiles()) assert.match(file, /^accounts\/1\//);
    assert.ok(!backend.allFiles().some((f) => f.includes('escape')));
  });

  test('each account sees only its own root', async () => {
    const client = new Client(10_000);
    try {
      await client.access({ host: '127.0.0.1', port: ftp.port, user: 'other', password: 'secret2' });
      assert.deepEqual(await client.list('/'), []);
      await assert.rejects(client.size('/implicit.jpg'), /550/);
    } finally {
      client.close();
    }
  });
});

describe('FTP ingest: broken uploads are discarded', () => {
  test('over the size limit: 552 and nothing stored', async () => {
    const client = await connect();
    try {
      await assert.rejects(
        client.uploadFrom(Readable.from([picture(MAX + 100_000)]), 'huge.jpg'),
        (err: Error) => {
          return /552/.test(err.message) || /EPIPE|ECONNRESET|socket/i.test(err.message);
        },
      );
    } finally {
      client.close();
    }
    await wait(100);
    assert.ok(!backend.stored.some((s) => s.path === 'huge.jpg'));
    assert.ok(backend.discarded.some((d) => d.path === 'huge.jpg'));
    assert.ok(!backend.allFiles().some((f) => f.includes('huge')));
    const log = backend.sessions.flatMap((s) => s.entries.map((e) => e.text));
    assert.ok(log.some((t) => t.startsWith('552 ')));
  });

  test('data connection reset mid-transfer: 426, not stored', async () => {
    const raw = new RawFtp(ftp.port);
    try {
      await raw.login();
      const data = await raw.passiveData();
      raw.socket.write('STOR reset.jpg\r\n');
      assert.match(await raw.reply(), /^150/);
      data.write(picture(100_000));
      await wait(50);
      data.resetAndDestroy();
      assert.match(await raw.reply(), /^426/);
    } finally {
      raw.close();
    }
    await wait(50);
    assert.ok(!backend.stored.some((s) => s.path === 'reset.jpg'));
    assert.ok(backend.discarded.some((d) => d.path === 'reset.jpg'));
  });

  test('ABOR during the transfer, then a clean close: 426 + 226, not stored', async () => {
    const raw = new RawFtp(ftp.port);
    try {
      await raw.login();
      const data = await raw.passiveData();
      raw.socket.write('STOR abor.jpg\r\n');
      assert.match(await raw.reply(), /^150/);
      data.write(picture(100_000));
      await wait(50);
      raw.socket.write('ABOR\r\n');
      await wait(10);
      data.end();
      assert.match(await raw.reply(), /^426/);
      assert.match(await raw.reply(), /^226/);
      // The connection is still usable afterwards.
      assert.match(await raw.cmd('NOOP'), /^200/);
    } finally {
      raw.close();
    }
    await wait(50);
    assert.ok(!backend.stored.some((s) => s.path === 'abor.jpg'));
  });

  test('client killed: data FIN and command connection gone together, not stored', async () => {
    const raw = new RawFtp(ftp.port);
    await raw.login();
    const data = await raw.passiveData();
    raw.socket.write('STOR killed.jpg\r\n');
    assert.match(await raw.reply(), /^150/);
    data.write(picture(100_000));
    await wait(50);
    data.end();
    raw.socket.destroy();
    await wait(200);
    assert.ok(!backend.stored.some((s) => s.path === 'killed.jpg'));
  });

  test('a pipelined command split across TCP packets still works', async () => {
    const raw = new RawFtp(ftp.port);
    try {
      assert.match(await raw.reply(), /^220/);
      raw.socket.write('US');
      await wait(30);
      raw.socket.write('ER cam\r\nPA');
      assert.match(await raw.reply(), /^331/);
      raw.socket.write('SS secret\r\nPWD\r\n');
      assert.match(await raw.reply(), /^230/);
      assert.match(await raw.reply(), /^257 "\/"/);
    } finally {
      raw.close();
    }
  });
});

describe('FTP ingest: wrong passwords are slowed, then blocked', () => {
  test('throttle per address', async () => {
    const b = new TempDirBackend();
    b.addAccount('cam', 'secret', 1);
    const throttled = await startFtpIngest({
      port: 0,
      host: '127.0.0.1',
      pasvRange: [pasvMin, pasvMin + 99],
      tls: await loadOrCreateTlsMaterial({ dataDir: work }),
      maxUploadBytes: MAX,
      backend: b,
      log,
      loginThrottle: new LoginThrottle({
        slowAfter: 2,
        delayStepMs: 150,
        maxDelayMs: 1000,
        blockAfter: 4,
        blockMs: 60_000,
      }),
    });
    try {
      const attempt = async (password: string) => {
        const started = Date.now();
        const client = new Client(10_000);
        try {
          await client.access({ host: '127.0.0.1', port: throttled.port, user: 'cam', password });
          return { ok: true, ms: Date.now() - started, message: '' };
        } catch (err) {
          return { ok: false, ms: Date.now() - started, message: (err as Error).message };
        } finally {
          client.close();
        }
      };
      const first = await attempt('wrong');
      assert.equal(first.ok, false);
      assert.match(first.message, /530 Login incorrect/);
      await attempt('wrong');
      const slowed = await attempt('wrong'); // third failure: 2 already on record -> waits 150 ms
      assert.ok(slowed.ms >= 140, `slowed answer took ${slowed.ms} ms`);
      await attempt('wrong'); // fourth: now blocked
      const blocked = await attempt('secret');
      assert.equal(blocked.ok, false);
      assert.match(blocked.message, /530 Too many failed logins/);
      assert.ok(b.sessions.some((s) => s.logins.some((l) => l.reason === 'blocked')));
    } finally {
      await throttled.close();
      b.cleanup();
    }
  });

  test('three failures on one connection close it', async () => {
    const raw = new RawFtp(ftp.port);
    try {
      assert.match(await raw.reply(), /^220/);
      for (let i = 0; i < 3; i++) {
        assert.match(await raw.cmd('USER cam'), /^331/);
        assert.match(await raw.cmd('PASS nope'), /^530/);
      }
      assert.match(await raw.reply(), /^421/);
    } finally {
      raw.close();
    }
  });
});
