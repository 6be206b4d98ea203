import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { Client, type ConnectConfig } from 'ssh2';
import { ftpUpload } from '../../test/support/camera.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { RawFtp } from '../../test/support/raw-ftp.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 10 item 15 against the real server: REQUIRE_TLS, forward-secret FTPS only, SFTP without
// SHA-1, and a NUL byte in a command that must not cost the connection its log entry.

let server: TestServer;
let strict: TestServer;
before(async () => {
  server = await startTestServer();
  strict = await startTestServer({ REQUIRE_TLS: '1' });
});
after(async () => {
  await server.stop();
  await strict.stop();
});

async function project(on: TestServer) {
  const { account, projectId } = await makeProjectWithServer(on, await makeTeam(on), 'Transport');
  if (!account) throw new Error('project without FTP account');
  return { ...account, projectId };
}

async function loggedSessions(on: TestServer, projectId: number) {
  return on.running.ctx.db
    .selectFrom('ingest_sessions')
    .select(['login_result', 'entries'])
    .where('project_id', '=', projectId)
    .execute();
}

async function waitFor<T>(get: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('REQUIRE_TLS', () => {
  test('plain FTP logins are refused with a clear reply; FTPS uploads work', async () => {
    const account = await project(strict);
    const port = strict.running.ingest?.ftpPort ?? 0;
    const raw = new RawFtp(port);
    try {
      assert.match(await raw.reply(), /^220/);
      assert.match(await raw.cmd(`USER ${account.username}`), /^530 TLS required/);
      assert.match(await raw.cmd(`PASS ${account.password}`), /^530 TLS required/);
      assert.match(await raw.cmd('EPSV'), /^530/);
    } finally {
      raw.close();
    }
    await ftpUpload(port, account, 'DCIM/IMG_1.JPG', Buffer.alloc(1000, 1), true);
    const sessions = await waitFor(async () => {
      const rows = await loggedSessions(strict, account.projectId);
      return rows.length >= 2 ? rows : undefined;
    });
    assert.ok(
      sessions.some((s) => s.login_result === 'TLS required'),
      'the photographer sees why',
    );
    assert.ok(sessions.some((s) => s.login_result === 'ok'));
  });

  test('off by default: plain FTP still logs in', async () => {
    const account = await project(server);
    const raw = new RawFtp(server.running.ingest?.ftpPort ?? 0);
    try {
      assert.match(await raw.login(account.username, account.password), /^230/);
    } finally {
      raw.close();
    }
  });
});

describe('FTPS key exchange', () => {
  async function handshake(ciphers: string): Promise<string> {
    const raw = new RawFtp(server.running.ingest?.ftpPort ?? 0);
    try {
      assert.match(await raw.reply(), /^220/);
      assert.match(await raw.cmd('AUTH TLS'), /^234/);
      return await new Promise<string>((resolve) => {
        const secure = tls.connect({
          socket: raw.socket,
          ciphers,
          maxVersion: 'TLSv1.2',
          rejectUnauthorized: false,
        });
        secure.once('secureConnect', () => {
          resolve(secure.getCipher().name);
          secure.destroy();
        });
        secure.once('error', (err) => resolve(`refused: ${err.message}`));
      });
    } finally {
      raw.close();
    }
  }

  test('plain-RSA key exchange is refused, ECDHE is taken', async () => {
    assert.match(await handshake('AES128-SHA:AES256-SHA:AES128-GCM-SHA256:AES256-GCM-SHA384'), /^refused/);
    assert.equal(await handshake('ECDHE-RSA-AES128-GCM-SHA256'), 'ECDHE-RSA-AES128-GCM-SHA256');
  });
});

describe('SFTP algorithms', () => {
  async function sftpConnect(algorithms: ConnectConfig['algorithms']) {
    const account = await project(server);
    const conn = new Client();
    try {
      return await new Promise<string>((resolve) => {
        conn.once('ready', () => resolve('ok'));
        conn.once('error', (err) => resolve(`refused: ${err.message}`));
        conn.connect({
          host: '127.0.0.1',
          port: server.running.ingest?.sftpPort,
          username: account.username,
          password: account.password,
          algorithms,
          hostVerifier: () => true,
        });
      });
    } finally {
      conn.end();
    }
  }

  test('the RSA host key signs with SHA-2 only, and hmac-sha1 is not offered', async () => {
    assert.match(await sftpConnect({ serverHostKey: ['ssh-rsa'] }), /^refused/);
    assert.equal(await sftpConnect({ serverHostKey: ['rsa-sha2-256'] }), 'ok');
    assert.equal(await sftpConnect({ serverHostKey: ['rsa-sha2-512'] }), 'ok');
    assert.equal(await sftpConnect({ serverHostKey: ['ssh-ed25519'] }), 'ok');
    assert.match(await sftpConnect({ cipher: ['aes128-ctr'], hmac: ['hmac-sha1'] }), /^refused/);
    assert.equal(await sftpConnect({ cipher: ['aes128-ctr'], hmac: ['hmac-sha2-256'] }), 'ok');
  });
});

describe('NUL bytes', () => {
  test('a NUL byte in a command does not lose the connection log', async () => {
    const account = await project(server);
    const raw = new RawFtp(server.running.ingest?.ftpPort ?? 0);
    try {
      assert.match(await raw.login(account.username, account.password), /^230/);
      const reply = await raw.cmd('MKD DC\u0000IM');
      assert.match(reply, /^\d{3}/);
      assert.match(await raw.cmd('NOOP'), /^200/);
      raw.socket.write('QUIT\r\n');
      await raw.reply();
    } finally {
      raw.close();
    }
    const rows = await waitFor(async () => {
      const found = await loggedSessions(server, account.projectId);
      return found.length > 0 ? found : undefined;
    });
    const entries = (rows[0]?.entries ?? []) as Array<{ text: string }>;
    const texts = entries.map((e) => e.text);
    assert.ok(
      texts.some((t) => t.startsWith('MKD DC')),
      texts.join('\n'),
    );
    // The user name with a NUL is no account, and no server error either.
    const nul = new RawFtp(server.running.ingest?.ftpPort ?? 0);
    try {
      assert.match(await nul.login(`${account.username}\u0000x`, account.password), /^530 Login incorrect/);
    } finally {
      nul.close();
    }
  });
});
