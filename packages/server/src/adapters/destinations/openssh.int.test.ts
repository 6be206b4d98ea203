import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type OpenSshd, startOpenSshd } from '../../../test/support/openssh.ts';
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
