import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCommand } from '../../../test/support/commands.ts';
import {
  startFtpDestination,
  startSftpDestination,
  type TempDirDestination,
} from '../../../test/support/destinations.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { type OpenSshd, sshdAvailable, startOpenSshd } from '../../../test/support/openssh.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { startVsftpd, type Vsftpd, vsftpdAvailable } from '../../../test/support/vsftpd.ts';

// Issue 28 item 4: the FTP server page's Test, through the real command, against our own FTP/FTPS/SFTP
// server, Debian's vsftpd and OpenSSH. A missing folder is made as the first delivery would make
// it (it answered "550 No such directory"); a wrong password answers about as fast as a right one.

let server: TestServer;
let team: Awaited<ReturnType<typeof makeTeam>>;
let ftp: TempDirDestination;
let sftp: TempDirDestination;

before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
  team = await makeTeam(server);
  ftp = await startFtpDestination();
  sftp = await startSftpDestination();
});
after(async () => {
  await ftp.close();
  await sftp.close();
  await server.stop();
});

type Body = {
  host: string;
  port: number;
  protocol: 'ftp' | 'ftps' | 'sftp';
  username: string;
  password: string;
  path?: string;
};

const testServer = (body: Body) =>
  runCommand<string>(team.owner.client, team.teamUuid, 'testftpserver', body);

/** The Test's time in ms (the median of three, so one slow moment on a loaded machine does not decide). */
async function timed(body: Body): Promise<{ ms: number; state: string; detail: string }> {
  const runs: Array<{ ms: number; state: string; detail: string }> = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const outcome = await testServer(body);
    runs.push({ ms: performance.now() - started, ...outcome });
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1] as { ms: number; state: string; detail: string };
}

/** The bar: a wrong password within max(1.5 × right, right + 1 s). */
async function assertWrongAsFastAsRight(body: Body, refusal: RegExp) {
  const right = await timed(body);
  const wrong = await timed({ ...body, password: `${body.password}-wrong` });
  assert.equal(right.state, 'ok', right.detail);
  assert.equal(wrong.state, 'error');
  assert.match(wrong.detail, refusal);
  const bar = Math.max(1.5 * right.ms, right.ms + 1000);
  console.log(
    `${body.protocol} :${body.port} right ${right.ms.toFixed(0)} ms, wrong ${wrong.ms.toFixed(0)} ms (bar ${bar.toFixed(0)} ms)`,
  );
  assert.ok(wrong.ms <= bar, `wrong password ${wrong.ms.toFixed(0)} ms, right ${right.ms.toFixed(0)} ms`);
}

for (const protocol of ['ftp', 'ftps', 'sftp'] as const) {
  describe(`${protocol}: our own server`, () => {
    const body = (): Body => {
      const d = protocol === 'sftp' ? sftp : ftp;
      return { host: '127.0.0.1', port: d.port, protocol, username: d.username, password: d.password };
    };
    const destination = () => (protocol === 'sftp' ? sftp : ftp);

    test('a missing folder is made, as delivery makes it', async () => {
      const folder = `/in/${protocol}/2026`;
      assert.equal(destination().read(folder), null);
      assert.deepEqual(await testServer({ ...body(), path: folder }), { state: 'ok', detail: 'Success!!!' });
      assert.ok(fs.statSync(destination().file(folder.slice(1))).isDirectory());
      // Again: the folder is there now.
      assert.deepEqual(await testServer({ ...body(), path: folder }), { state: 'ok', detail: 'Success!!!' });
    });

    test('a wrong password answers about as fast as a right one', async () => {
      await assertWrongAsFastAsRight(body(), protocol === 'sftp' ? /authentication methods failed/i : /^530/);
    });
  });
}

describe("Debian's vsftpd", { skip: !vsftpdAvailable() && 'needs root and /usr/sbin/vsftpd' }, () => {
  let vsftpd: Vsftpd;
  before(async () => {
    vsftpd = await startVsftpd();
  });
  after(async () => {
    await vsftpd?.stop();
  });
  const body = (): Body => ({
    host: '127.0.0.1',
    port: vsftpd.port,
    protocol: 'ftp',
    username: vsftpd.username,
    password: vsftpd.password,
  });

  test('a missing folder is made; one the account may not make is named plainly', async () => {
    assert.deepEqual(await testServer({ ...body(), path: '/incoming/in/2026' }), {
      state: 'ok',
      detail: 'Success!!!',
    });
    assert.ok(fs.statSync(path.join(vsftpd.root, 'incoming/in/2026')).isDirectory());
    // Only incoming/ is writable: the answer says which folder, not only "550 Failed to change directory".
    const refused = await testServer({ ...body(), path: '/in/2026' });
    assert.equal(refused.state, 'error');
    assert.match(refused.detail, /^Folder \/in\/2026 could not be created: 550 /);
  });

  test('a wrong login answers about as fast as a right one', async () => {
    // vsftpd here is anonymous only: a named account is the refused login.
    const right = await timed(body());
    const wrong = await timed({ ...body(), username: 'agency', password: 'wrong' });
    assert.equal(wrong.state, 'error');
    assert.match(wrong.detail, /^530/);
    assert.ok(wrong.ms <= Math.max(1.5 * right.ms, right.ms + 1000), `${wrong.ms} vs ${right.ms}`);
  });
});

describe('OpenSSH with PAM (password and keyboard-interactive offered)', {
  skip: !sshdAvailable() && 'needs root and /usr/sbin/sshd',
}, () => {
  let sshd: OpenSshd;
  before(async () => {
    sshd = await startOpenSshd({ sshdOptions: ['UsePAM yes', 'KbdInteractiveAuthentication yes'] });
  });
  after(async () => {
    await sshd?.stop();
  });

  test('a wrong password is tried once: one refusal delay of the server, not one per method', async () => {
    const body: Body = {
      host: '127.0.0.1',
      port: sshd.port,
      protocol: 'sftp',
      username: sshd.username,
      password: sshd.password,
    };
    const refusals = () => sshd.output().match(/Failed (?:password|keyboard-interactive)/g)?.length ?? 0;
    const right = await timed(body);
    const before = refusals();
    const wrong = await timed({ ...body, password: 'wrong' });
    // Three Tests, one refused try each (before: the password again as keyboard-interactive).
    assert.equal(refusals() - before, 3, sshd.output().slice(-2000));
    assert.equal(right.state, 'ok', right.detail);
    assert.match(wrong.detail, /authentication methods failed/i);
    console.log(`OpenSSH+PAM right ${right.ms.toFixed(0)} ms, wrong ${wrong.ms.toFixed(0)} ms`);
    // PAM waits after a refused password whoever the client is (3.5 s here, against 0.5 s for a
    // right one); before, the password was tried again as keyboard-interactive (6.1 s).
    assert.ok(
      wrong.ms <= right.ms + 5000,
      `wrong password ${wrong.ms.toFixed(0)} ms, right ${right.ms.toFixed(0)} ms`,
    );
  });
});

describe('OpenSSH offering keyboard-interactive only', {
  skip: !sshdAvailable() && 'needs root and /usr/sbin/sshd',
}, () => {
  test('the password is the answer to its prompt', async () => {
    const sshd = await startOpenSshd({
      sshdOptions: ['UsePAM yes', 'PasswordAuthentication no', 'KbdInteractiveAuthentication yes'],
    });
    try {
      const body: Body = {
        host: '127.0.0.1',
        port: sshd.port,
        protocol: 'sftp',
        username: sshd.username,
        password: sshd.password,
      };
      assert.deepEqual(await testServer(body), { state: 'ok', detail: 'Success!!!' });
      assert.equal((await testServer({ ...body, password: 'wrong' })).state, 'error');
    } finally {
      await sshd.stop();
    }
  });
});
