import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type OpenSshd, startOpenSshd } from '../../../test/support/openssh.ts';
import type { FilePart } from '../storage/file-parts.ts';
import { createDestinationClient } from './connect.ts';
import { DestinationError, isTransientConnectionError } from './destination.ts';
import { DestinationPool, type PooledServer } from './pool.ts';

// SFTP deliveries against Debian's OpenSSH server (issue 15, the pipeline's tail).

let sshd: OpenSshd;
let server: PooledServer;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-openssh-test-'));
before(async () => {
  sshd = await startOpenSshd();
  server = {
    id: 'openssh',
    maxConnections: 8,
    settings: {
      protocol: 'sftp',
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.username,
      password: sshd.password,
      allowPrivateNetworks: true,
    },
  };
});
after(async () => {
  await sshd.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

test('8 connections delivering into the same new folders at once: every file arrives', async () => {
  // OpenSSH answers a mkdir of a folder another connection just made with a bare FAILURE; the
  // first files into a new folder used to fail their first try this way. All 8 connections are
  // logged in before they start, so their folder checks meet.
  const pool = new DestinationPool();
  const file = path.join(work, 'IMG.JPG');
  fs.writeFileSync(file, crypto.randomBytes(50_000));
  try {
    for (let round = 0; round < 5; round++) {
      let ready = 0;
      let go = () => {};
      const allReady = new Promise<void>((resolve) => {
        go = resolve;
      });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          pool.use(server, async (client) => {
            if (++ready === 8) go();
            await allReady;
            return client.upload(file, `race${round}/day/${i % 2}`, `IMG_${i}.JPG`, { tempTag: `job${i}` });
          }),
        ),
      );
      const failed = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      assert.deepEqual(failed, [], `round ${round}`);
      for (let i = 0; i < 8; i++)
        assert.deepEqual(
          fs.readFileSync(path.join(sshd.root, `race${round}/day/${i % 2}`, `IMG_${i}.JPG`)),
          fs.readFileSync(file),
        );
    }
  } finally {
    await pool.closeAll();
  }
});

test('a fresh connection passes the idle ones by', async () => {
  const pool = new DestinationPool();
  const file = path.join(work, 'fresh.jpg');
  fs.writeFileSync(file, crypto.randomBytes(1000));
  try {
    const first = await pool.use(server, async (client) => {
      await client.upload(file, 'fresh', 'A.JPG');
      return client;
    });
    const second = await pool.use(server, async (client) => client, { fresh: true });
    assert.notEqual(second, first);
    assert.equal(pool.openConnections(server), 2, 'the idle one stays for others');
    const third = await pool.use(server, async (client) => client);
    assert.ok(third === first || third === second, 'an ordinary use takes an idle one');
  } finally {
    await pool.closeAll();
  }
});

/** Writes random bytes to a new local file; returns its path and its bytes. */
function localFile(name: string, size: number): { file: string; bytes: Buffer } {
  const file = path.join(work, name);
  const bytes = crypto.randomBytes(size);
  fs.writeFileSync(file, bytes);
  return { file, bytes };
}

const remoteFiles = (dir: string) => fs.readdirSync(path.join(sshd.root, dir)).sort();

test('file parts: a head and a range at an odd offset, zero-length and tiny sources, byte for byte', async () => {
  // OpenSSH takes writes of up to 255 KB (limits@openssh.com): ssh2 splits each 256 KB write
  // in two, sending the rest from the same buffer once the first packet is acknowledged.
  const head = localFile('head.bin', 1234);
  const received = localFile('received.jpg', 3_000_017);
  const empty = localFile('empty.jpg', 0);
  const tiny = localFile('tiny.jpg', 1000);
  const cases: Array<[string, string | FilePart[], Buffer]> = [
    [
      'STAMPED.JPG',
      [
        { file: head.file, start: 0, end: 1234 },
        { file: received.file, start: 4_321, end: 3_000_014 },
      ],
      Buffer.concat([head.bytes, received.bytes.subarray(4_321, 3_000_014)]),
    ],
    ['WHOLE.JPG', received.file, received.bytes],
    ['EMPTY_PATH.JPG', empty.file, Buffer.alloc(0)],
    ['EMPTY_PARTS.JPG', [], Buffer.alloc(0)],
    ['EMPTY_RANGE.JPG', [{ file: tiny.file, start: 7, end: 7 }], Buffer.alloc(0)],
    ['TINY_PATH.JPG', tiny.file, tiny.bytes],
    [
      'TINY_PARTS.JPG',
      [
        { file: tiny.file, start: 999, end: 1000 },
        { file: head.file, start: 1, end: 100 },
      ],
      Buffer.concat([tiny.bytes.subarray(999), head.bytes.subarray(1, 100)]),
    ],
  ];
  const client = await createDestinationClient(server.settings);
  try {
    for (const [name, source, expected] of cases) {
      let progress = 0;
      const result = await client.upload(source, 'parts/day', name, {
        onProgress: (b) => {
          progress = b;
        },
      });
      assert.equal(result.bytes, expected.length, name);
      assert.equal(progress, expected.length, name);
      assert.ok(fs.readFileSync(path.join(sshd.root, 'parts/day', name)).equals(expected), name);
    }
    // Once more over the existing file, the buffers now reused from the uploads before.
    const [name, source, expected] = cases[0]!;
    await client.upload(source, 'parts/day', name, { tempTag: 'job3' });
    assert.ok(fs.readFileSync(path.join(sshd.root, 'parts/day', name)).equals(expected));
  } finally {
    await client.close();
  }
  assert.deepEqual(remoteFiles('parts/day'), cases.map(([name]) => name).sort(), 'no temporary files');
});

test('a part whose file is missing: a clear error, no temporary file, the connection still works', async () => {
  const head = localFile('head-missing.bin', 1234);
  const missing = path.join(work, 'gone.jpg');
  const client = await createDestinationClient(server.settings);
  try {
    await client.upload(head.file, 'missing', 'BEFORE.JPG');
    await assert.rejects(
      client.upload(
        [
          { file: head.file, start: 0, end: 1234 },
          { file: missing, start: 1, end: 3_000_000 },
        ],
        'missing',
        'IMG.JPG',
        { tempTag: 'job4' },
      ),
      { message: `Local file missing: ${missing}` },
    );
    // A range beyond the file's end is refused before anything is sent, too.
    await assert.rejects(
      client.upload([{ file: head.file, start: 0, end: 1235 }], 'missing', 'IMG.JPG'),
      /has no bytes 0 to 1235 \(it has 1234\)/,
    );
    assert.equal(client.closed, false);
    await client.upload(head.file, 'missing', 'AFTER.JPG');
  } finally {
    await client.close();
  }
  assert.deepEqual(remoteFiles('missing'), ['AFTER.JPG', 'BEFORE.JPG']);
});

test('a connection that drops under a parts upload fails as a connection failure', async () => {
  const head = localFile('head-drop.bin', 1234);
  const big = localFile('big.jpg', 40_000_000);
  const client = await createDestinationClient(server.settings);
  const dir = path.join(sshd.root, 'drop');
  const growing = () => {
    const part = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => n.endsWith('.part')) : undefined;
    try {
      return part !== undefined && fs.statSync(path.join(dir, part)).size > 0;
    } catch {
      return false;
    }
  };
  try {
    const upload = client.upload(
      [
        { file: head.file, start: 0, end: 1234 },
        { file: big.file, start: 1, end: big.bytes.length },
      ],
      'drop',
      'BIG.JPG',
    );
    const failed = upload.then(
      () => undefined,
      (err: unknown) => err,
    );
    while (!growing()) {
      assert.equal(await Promise.race([failed, new Promise((r) => setTimeout(r, 2, 'wait'))]), 'wait');
    }
    sshd.dropConnections();
    const err = await failed;
    assert.ok(err instanceof DestinationError, String(err));
    assert.ok(isTransientConnectionError(err), String(err));
    assert.equal(client.closed, true);
  } finally {
    await client.close();
  }
});

test('which failures are retried at once on a new connection', () => {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  for (const transient of [
    reset,
    new DestinationError('No SFTP connection available'),
    new DestinationError('Client network socket disconnected before secure TLS connection was established'),
    new DestinationError('Server closed connection unexpectedly.'),
    // ssh2-sftp-client, when the session's end or close event comes before the reset.
    new DestinationError('Unexpected end event'),
    new DestinationError('Unexpected close event'),
  ])
    assert.equal(isTransientConnectionError(transient), true, String(transient));
  for (const lasting of [
    new DestinationError('All configured authentication methods failed'),
    new DestinationError('connect ECONNREFUSED 127.0.0.1:9'),
    new DestinationError('No such file'),
    new DestinationError('Bad path: in permission denied'),
  ])
    assert.equal(isTransientConnectionError(lasting), false, String(lasting));
});
