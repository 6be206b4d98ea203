import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { TempDirBackend } from '../../../test/support/temp-dir-backend.ts';
import { startVsftpd, type Vsftpd, vsftpdAvailable } from '../../../test/support/vsftpd.ts';
import { type FtpIngest, startFtpIngest } from '../../ingest/ftp-server.ts';
import { type SftpIngest, startSftpIngest } from '../../ingest/sftp-server.ts';
import { loadOrCreateTlsMaterial } from '../../ingest/tls.ts';
import type { FilePart } from '../storage/file-parts.ts';
import { createDestinationClient } from './connect.ts';
import type { DestinationProtocol, DestinationSettings } from './destination.ts';
import { DestinationPool } from './pool.ts';
import { testDestination } from './test-connection.ts';

/**
 * Destination clients against real servers on 127.0.0.1: our own FTP(S) and SFTP ingest
 * servers, with a temp-folder backend that records every operation (so the temp name and the
 * rename are visible) and refuses to rename onto an existing file, as SFTP v3 servers do.
 * File parts also go to Debian's vsftpd (needs root; skipped without), which, unlike our own
 * servers, keeps zero-byte uploads.
 */

const log = pino({ level: 'silent' });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-dest-test-'));
const backend = new TempDirBackend();
let ftp: FtpIngest;
let sftp: SftpIngest;
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/**
 * A stamped file as the pipeline stores it: a new head of 1,234 bytes (its own file), then a
 * range of a ~3 MB received file from an odd offset, so writes span the boundary between the
 * parts and the last one is short.
 */
function stampedParts(name: string): { parts: FilePart[]; expected: Buffer } {
  const head = crypto.randomBytes(1234);
  const received = crypto.randomBytes(3_000_017);
  const headFile = path.join(work, `${name}.head`);
  const receivedFile = path.join(work, `${name}.jpg`);
  fs.writeFileSync(headFile, head);
  fs.writeFileSync(receivedFile, received);
  const start = 4_321;
  const end = received.length - 3;
  return {
    parts: [
      { file: headFile, start: 0, end: head.length },
      { file: receivedFile, start, end },
    ],
    expected: Buffer.concat([head, received.subarray(start, end)]),
  };
}

function settings(
  protocol: DestinationProtocol,
  overrides: Partial<DestinationSettings> = {},
): DestinationSettings {
  return {
    protocol,
    host: '127.0.0.1',
    port: protocol === 'sftp' ? sftp.port : ftp.port,
    username: 'agency',
    password: 'pw',
    allowPrivateNetworks: true,
    timeoutMs: 10_000,
    ...overrides,
  };
}

before(async () => {
  backend.addAccount('agency', 'pw', 7);
  ftp = await startFtpIngest({
    port: 0,
    host: '127.0.0.1',
    pasvRange: [pasvMin, pasvMin + 99],
    tls: await loadOrCreateTlsMaterial({ dataDir: work }),
    maxUploadBytes: 50_000_000,
    backend,
    log,
  });
  sftp = await startSftpIngest({
    port: 0,
    host: '127.0.0.1',
    hostKeyDir: path.join(work, 'ssh'),
    maxUploadBytes: 50_000_000,
    backend,
    log,
  });
});

after(async () => {
  await ftp.close();
  await sftp.close();
  backend.cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Zero-length and tiny sources (less than one write): [remote name, source, the bytes it stands for]. */
function smallSources(name: string): Array<[string, string | FilePart[], Buffer]> {
  const empty = path.join(work, `${name}-empty.jpg`);
  fs.writeFileSync(empty, Buffer.alloc(0));
  const tiny = crypto.randomBytes(1000);
  const tinyFile = path.join(work, `${name}-tiny.jpg`);
  fs.writeFileSync(tinyFile, tiny);
  return [
    ['EMPTY_PATH.JPG', empty, Buffer.alloc(0)],
    ['EMPTY_PARTS.JPG', [], Buffer.alloc(0)],
    [
      'EMPTY_RANGES.JPG',
      [
        { file: empty, start: 0, end: 0 },
        { file: tinyFile, start: 10, end: 10 },
      ],
      Buffer.alloc(0),
    ],
    ['TINY_PATH.JPG', tinyFile, tiny],
    [
      'TINY_PARTS.JPG',
      [
        { file: tinyFile, start: 990, end: 1000 },
        { file: tinyFile, start: 3, end: 20 },
      ],
      Buffer.concat([tiny.subarray(990), tiny.subarray(3, 20)]),
    ],
  ];
}

for (const protocol of ['ftp', 'ftps', 'sftp'] as const) {
  describe(`${protocol} destination`, () => {
    test('creates missing folders, uploads under a temporary name, renames, replaces an existing file', async () => {
      const dir = `agency/${protocol}/2026`;
      const client = await createDestinationClient(settings(protocol));
      try {
        const first = crypto.randomBytes(400_000);
        let progress = 0;
        const result = await client.upload(Readable.from([first]), dir, 'IMG_1.JPG', {
          onProgress: (b) => {
            progress = b;
          },
        });
        assert.equal(result.bytes, first.length);
        assert.equal(progress, first.length);
        assert.equal(sha(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_1.JPG`))), sha(first));

        const stored = backend.events.filter((e) => e.includes(`${dir}/`));
        const temp = /store:done (\S+)/.exec(stored.find((e) => e.startsWith('store:done')) ?? '')?.[1] ?? '';
        assert.match(temp, new RegExp(`^${dir}/\\.IMG_1\\.JPG\\.[0-9a-f]{8}\\.part$`));
        assert.ok(stored.includes(`rename ${temp} ${dir}/IMG_1.JPG`), stored.join('\n'));

        // Same name again from a local file: the old one is replaced (delete, then rename here).
        const second = crypto.randomBytes(300_000);
        const local = path.join(work, `${protocol}-second.jpg`);
        fs.writeFileSync(local, second);
        const again = await client.upload(local, dir, 'IMG_1.JPG');
        assert.equal(again.bytes, second.length);
        assert.equal(sha(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_1.JPG`))), sha(second));
        assert.deepEqual(
          fs.readdirSync(backend.fileOf(7, dir)),
          ['IMG_1.JPG'],
          'no temporary files left behind',
        );
      } finally {
        await client.close();
      }
    });

    test('a retry with the same tag writes over the half-written file a crashed try left', async () => {
      const dir = `agency/${protocol}/retry`;
      const picture = crypto.randomBytes(200_000);
      // What a try killed mid-transfer leaves: the job's temporary file, half written.
      fs.mkdirSync(backend.fileOf(7, dir), { recursive: true });
      fs.writeFileSync(backend.fileOf(7, `${dir}/.IMG_9.JPG.job42.part`), picture.subarray(0, 70_000));
      const client = await createDestinationClient(settings(protocol));
      try {
        await client.upload(Readable.from([picture]), dir, 'IMG_9.JPG', { tempTag: 'job42' });
      } finally {
        await client.close();
      }
      assert.equal(sha(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_9.JPG`))), sha(picture));
      assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)), ['IMG_9.JPG'], 'no temporary file left');
    });

    test('a connection stays in its folder between files, and a folder deleted meanwhile is made again', async () => {
      const dir = `agency/${protocol}/event`;
      const local = path.join(work, `${protocol}-event.jpg`);
      const picture = crypto.randomBytes(50_000);
      fs.writeFileSync(local, picture);
      const client = await createDestinationClient(settings(protocol));
      try {
        await client.upload(local, dir, 'IMG_1.JPG');
        const before = backend.sessions.at(-1)?.entries.length ?? 0;
        await client.upload(local, dir, 'IMG_2.JPG');
        const commands = (backend.sessions.at(-1)?.entries ?? [])
          .slice(before)
          .filter((e) => e.kind === 'command')
          .map((e) => e.text);
        if (protocol !== 'sftp') {
          assert.ok(
            commands.some((c) => c.startsWith('STOR')),
            commands.join(', '),
          );
          assert.ok(!commands.some((c) => c.startsWith('CWD')), commands.join(', '));
        }
        // Somebody on the agency's side removes the folder between two pictures. Parts can be
        // sent again as a path can (FTP enters the folder afresh and sends them once more).
        fs.rmSync(backend.fileOf(7, `agency/${protocol}`), { recursive: true });
        const parts = [
          { file: local, start: 0, end: 20_001 },
          { file: local, start: 20_001, end: picture.length },
        ];
        assert.equal((await client.upload(parts, dir, 'IMG_3.JPG')).bytes, picture.length);
      } finally {
        await client.close();
      }
      assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)), ['IMG_3.JPG']);
      assert.equal(sha(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_3.JPG`))), sha(picture));
    });

    test('parts: a head file and a range at an odd offset arrive as one file, byte for byte', async () => {
      const dir = `agency/${protocol}/parts`;
      const { parts, expected } = stampedParts(`${protocol}-stamped`);
      const client = await createDestinationClient(settings(protocol));
      try {
        const seen: number[] = [];
        const result = await client.upload(parts, dir, 'IMG_P.JPG', { onProgress: (b) => seen.push(b) });
        assert.equal(result.bytes, expected.length);
        assert.equal(seen.at(-1), expected.length);
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => a - b),
          'progress only grows',
        );
        assert.ok(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_P.JPG`)).equals(expected));
        // Again on the same connection, over the first (a retry): the same bytes, no leftovers.
        await client.upload(parts, dir, 'IMG_P.JPG', { tempTag: 'job5' });
        assert.ok(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_P.JPG`)).equals(expected));
        assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)), ['IMG_P.JPG']);
      } finally {
        await client.close();
      }
    });

    test('tiny sources (less than one write)', async () => {
      // Zero-length ones are below, against vsftpd (and in openssh.int.test.ts): our own
      // servers answer an empty upload but never store it (ingest/upload-sink.ts).
      const dir = `agency/${protocol}/small`;
      const cases = smallSources(`${protocol}-small`).filter(([, , expected]) => expected.length > 0);
      const client = await createDestinationClient(settings(protocol));
      try {
        for (const [name, source, expected] of cases) {
          const result = await client.upload(source, dir, name);
          assert.equal(result.bytes, expected.length, name);
          assert.ok(fs.readFileSync(backend.fileOf(7, `${dir}/${name}`)).equals(expected), name);
        }
      } finally {
        await client.close();
      }
      assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)).sort(), cases.map(([name]) => name).sort());
    });

    test('a part whose file is missing: a clear error, no temporary file, the connection still works', async () => {
      const dir = `agency/${protocol}/missing`;
      const head = path.join(work, `${protocol}-head-only.bin`);
      fs.writeFileSync(head, crypto.randomBytes(1234));
      const missing = path.join(work, `${protocol}-gone.jpg`);
      const client = await createDestinationClient(settings(protocol));
      try {
        await client.upload(head, dir, 'BEFORE.JPG');
        await assert.rejects(
          client.upload(
            [
              { file: head, start: 0, end: 1234 },
              { file: missing, start: 100, end: 5_000_000 },
            ],
            dir,
            'IMG_M.JPG',
            { tempTag: 'job8' },
          ),
          { name: 'Error', message: `Local file missing: ${missing}` },
        );
        await assert.rejects(client.upload(missing, dir, 'IMG_N.JPG'), /^Error: Local file missing: /);
        assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)), ['BEFORE.JPG'], 'no temporary file');
        assert.equal(client.closed, false);
        await client.upload(head, dir, 'AFTER.JPG');
      } finally {
        await client.close();
      }
      assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)).sort(), ['AFTER.JPG', 'BEFORE.JPG']);
    });

    test('Test command: Success!!! or the server text', async () => {
      assert.equal(
        await testDestination({ ...settings(protocol), path: `agency/${protocol}` }),
        'Success!!!',
      );
      await assert.rejects(testDestination({ ...settings(protocol), password: 'wrong' }), (err: Error) => {
        return protocol === 'sftp'
          ? /authentication methods failed/i.test(err.message)
          : /^530 Login incorrect/.test(err.message);
      });
      // A missing folder is made, as the first delivery would (issue 28; test-command.int.test.ts).
      assert.equal(
        await testDestination({ ...settings(protocol), path: `agency/${protocol}/made/by/test` }),
        'Success!!!',
      );
      assert.ok(fs.statSync(backend.fileOf(7, `agency/${protocol}/made/by/test`)).isDirectory());
    });
  });
}

describe("file parts to Debian's vsftpd", {
  skip: !vsftpdAvailable() && 'needs root and /usr/sbin/vsftpd',
}, () => {
  let vsftpd: Vsftpd;
  const vsftpdSettings = (): DestinationSettings => ({
    protocol: 'ftp',
    host: '127.0.0.1',
    port: vsftpd.port,
    username: vsftpd.username,
    password: vsftpd.password,
    allowPrivateNetworks: true,
    timeoutMs: 10_000,
  });
  before(async () => {
    vsftpd = await startVsftpd();
  });
  after(async () => {
    await vsftpd?.stop();
  });

  test('a head and a range at an odd offset, zero-length and tiny sources: byte for byte', async () => {
    const { parts, expected } = stampedParts('vsftpd-stamped');
    const client = await createDestinationClient(vsftpdSettings());
    const small = smallSources('vsftpd-small');
    try {
      const result = await client.upload(parts, 'incoming/parts', 'IMG_P.JPG');
      assert.equal(result.bytes, expected.length);
      assert.ok(vsftpd.read('incoming/parts/IMG_P.JPG')?.equals(expected));
      for (const [name, source, bytes] of small) {
        assert.equal((await client.upload(source, 'incoming/small', name)).bytes, bytes.length, name);
        assert.ok(vsftpd.read(`incoming/small/${name}`)?.equals(bytes), name);
      }
    } finally {
      await client.close();
    }
    assert.deepEqual(vsftpd.files('incoming/parts'), ['incoming/parts/IMG_P.JPG']);
    assert.deepEqual(vsftpd.files('incoming/small'), small.map(([name]) => `incoming/small/${name}`).sort());
    assert.deepEqual(vsftpd.tempFiles('incoming'), []);
  });

  test('a part whose file is missing: a clear error, no temporary file', async () => {
    const head = path.join(work, 'vsftpd-head.bin');
    fs.writeFileSync(head, crypto.randomBytes(1234));
    const missing = path.join(work, 'vsftpd-gone.jpg');
    const client = await createDestinationClient(vsftpdSettings());
    try {
      await client.upload(head, 'incoming/missing', 'BEFORE.JPG');
      await assert.rejects(
        client.upload(
          [
            { file: head, start: 0, end: 1234 },
            { file: missing, start: 0, end: 10 },
          ],
          'incoming/missing',
          'IMG_M.JPG',
        ),
        { message: `Local file missing: ${missing}` },
      );
      assert.equal(client.closed, false);
    } finally {
      await client.close();
    }
    assert.deepEqual(vsftpd.files('incoming/missing'), ['incoming/missing/BEFORE.JPG']);
    assert.deepEqual(vsftpd.tempFiles('incoming/missing'), []);
  });
});

describe('outbound guard', () => {
  test('127.0.0.1 is refused unless private networks are allowed', async () => {
    for (const protocol of ['ftp', 'sftp'] as const) {
      await assert.rejects(
        createDestinationClient(settings(protocol, { allowPrivateNetworks: false })),
        /local or private network address/,
      );
      await assert.rejects(
        testDestination(settings(protocol, { host: 'localhost', allowPrivateNetworks: false })),
        /not allowed/,
      );
    }
  });

  test('IPv4-translated loopback (::ffff:0:127.0.0.1) and local-use NAT64 (64:ff9b:1::/48) are refused', async () => {
    for (const host of ['::ffff:0:127.0.0.1', '[::ffff:0:7f00:1]', '64:ff9b:1::a00:1']) {
      for (const protocol of ['ftp', 'sftp'] as const) {
        await assert.rejects(
          testDestination(settings(protocol, { host, allowPrivateNetworks: false, timeoutMs: 3000 })),
          /local or private network address/,
          `${protocol} ${host}`,
        );
      }
    }
  });
});

describe('connection pool', () => {
  for (const [protocol, max] of [
    ['ftp', 2],
    ['sftp', 1],
  ] as const) {
    test(`${protocol}: never more than ${max} connection(s) to a server, reused between uploads`, async () => {
      const pool = new DestinationPool({ idleMs: 300 });
      const server = { id: `pool-${protocol}`, settings: settings(protocol), maxConnections: max };
      const sessionsBefore = backend.sessions.length;
      backend.maxOpenSessions = backend.openSessions;
      const baseline = backend.openSessions;
      try {
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            pool.use(server, (client) =>
              client.upload(Readable.from([crypto.randomBytes(50_000)]), `pool/${protocol}`, `p${i}.jpg`),
            ),
          ),
        );
        assert.equal(fs.readdirSync(backend.fileOf(7, `pool/${protocol}`)).length, 6);
        assert.ok(
          backend.maxOpenSessions - baseline <= max,
          `at most ${max} at once, saw ${backend.maxOpenSessions - baseline}`,
        );
        assert.equal(backend.sessions.length - sessionsBefore, max, 'connections are reused');
        assert.equal(pool.openConnections(server), max);

        // A failed job's connection is dropped, not reused.
        await assert.rejects(pool.use(server, async () => Promise.reject(new Error('boom'))));
        assert.equal(pool.openConnections(server), max - 1);

        // Idle connections close by themselves.
        await new Promise((resolve) => setTimeout(resolve, 700));
        assert.equal(pool.openConnections(server), 0);
      } finally {
        await pool.closeAll();
      }
    });
  }
});
