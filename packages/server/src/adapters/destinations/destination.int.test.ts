import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type FtpIngest, startFtpIngest } from '../../ingest/ftp-server.ts';
import { type SftpIngest, startSftpIngest } from '../../ingest/sftp-server.ts';
import { TempDirBackend } from '../../ingest/temp-dir-backend.test-support.ts';
import { loadOrCreateTlsMaterial } from '../../ingest/tls.ts';
import { createDestinationClient } from './connect.ts';
import type { DestinationProtocol, DestinationSettings } from './destination.ts';
import { DestinationPool } from './pool.ts';
import { testDestination } from './test-connection.ts';

/**
 * Destination clients against real servers on 127.0.0.1: our own FTP(S) and SFTP ingest
 * servers, with a temp-folder backend that records every operation (so the temp name and the
 * rename are visible) and refuses to rename onto an existing file, as SFTP v3 servers do.
 */

const log = pino({ level: 'silent' });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-dest-test-'));
const backend = new TempDirBackend();
let ftp: FtpIngest;
let sftp: SftpIngest;
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

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
        // Somebody on the agency's side removes the folder between two pictures.
        fs.rmSync(backend.fileOf(7, `agency/${protocol}`), { recursive: true });
        await client.upload(local, dir, 'IMG_3.JPG');
      } finally {
        await client.close();
      }
      assert.deepEqual(fs.readdirSync(backend.fileOf(7, dir)), ['IMG_3.JPG']);
      assert.equal(sha(fs.readFileSync(backend.fileOf(7, `${dir}/IMG_3.JPG`))), sha(picture));
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
      await assert.rejects(
        testDestination({ ...settings(protocol), path: 'no/such/folder' }),
        (err: Error) => {
          return protocol === 'sftp'
            ? /no such/i.test(err.message)
            : /^550 No such directory/.test(err.message);
        },
      );
    });
  });
}

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
