import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { runCommand, waitForCommand } from '../../test/support/commands.ts';
import { destinationUser, startFtpDestination } from '../../test/support/destinations.ts';
import { makeTeam } from '../../test/support/factories.ts';
import { serverProcess } from '../../test/support/process.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { purgeFinishedCommands } from './service.ts';

// Issue 10 item 9: a Test's host, user and password sat in clear in commands.payload for ever;
// DATA_DIR content was created world-writable; mail tokens were logged at info level.
let server: TestServer;
let silent: net.Server;
const held = new Set<net.Socket>();
before(async () => {
  silent = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
});
after(async () => {
  for (const socket of held) socket.destroy();
  await server.stop();
  await new Promise((resolve) => silent.close(resolve));
});

const payloadText = async (id: number) => {
  const row = await server.running.ctx.db
    .selectFrom('commands')
    .select(sql<string>`payload::text`.as('payload'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.payload;
};

test("a Test's password is stored sealed, cleared when it finishes, and the row purged after a day", async () => {
  const team = await makeTeam(server, 'Sealed');
  const c = team.owner.client;
  const password = 'hunter2-at-rest';
  const port = (silent.address() as net.AddressInfo).port;
  const started = await c.post<{ commandId: number; token: string }>(
    `/api/${team.teamUuid}/command/testftpserver`,
    {
      host: '127.0.0.1',
      port,
      protocol: 'ftp',
      username: 'camera-user',
      password,
    },
  );
  assert.equal(started.status, 200);
  // The Test waits on the silent host now: its row is what an attacker with the database sees.
  const waiting = await payloadText(started.body.commandId);
  assert.ok(waiting?.includes('sealed'), waiting);
  for (const secret of [password, 'camera-user', '127.0.0.1']) assert.ok(!waiting?.includes(secret), secret);

  for (const socket of held) socket.destroy();
  const failed = await waitForCommand(c, team.teamUuid, started.body.commandId, started.body.token);
  assert.equal(failed.state, 'error');
  assert.equal(await payloadText(started.body.commandId), '{}', 'a finished command keeps no payload');

  // The runner unseals it: a Test with the right password logs in.
  const destination = await startFtpDestination();
  try {
    const ok = await runCommand(c, team.teamUuid, 'testftpserver', {
      host: '127.0.0.1',
      port: destination.port,
      protocol: 'ftp',
      ...destinationUser,
    });
    assert.deepEqual(ok, { state: 'ok', detail: 'Success!!!' });
  } finally {
    await destination.stop();
  }

  const db = server.running.ctx.db;
  await db
    .updateTable('commands')
    .set({ finished_at: sql`now() - interval '25 hours'` })
    .where('id', '=', started.body.commandId)
    .execute();
  assert.ok((await purgeFinishedCommands(server.running.ctx)) >= 1);
  const left = await db.selectFrom('commands').select('id').where('team_id', '=', team.teamId).execute();
  assert.equal(left.length, 1, 'the old one is gone, the fresh one stays');
});

/** Every file and folder under `dir` that others could read or write. */
function openToOthers(dir: string): string[] {
  const open: string[] = [];
  const walk = (at: string) => {
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) open.push(`${at} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) walk(path.join(at, name));
  };
  walk(dir);
  return open;
}

test('started with umask 000, the server creates DATA_DIR content for itself only and logs no tokens', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-modes-'));
  fs.chmodSync(dataDir, 0o777);
  const previous = process.umask(0);
  const proc = await serverProcess({ dataDir, env: { LOG_LEVEL: 'info' } });
  try {
    await proc.start();
    process.umask(previous);
    const client = new (await import('../../test/support/client.ts')).TestClient(proc.url);
    const signup = await client.post('/api/user/register', {
      email: 'modes@example.com',
      firstName: 'Mode',
      lastName: 'Test',
      companyName: 'Modes',
      password: 'correct horse battery',
    });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const outbox = path.join(dataDir, 'outbox');
    const [mail] = fs.readdirSync(outbox);
    const token = /token=([\w.-]+)/.exec(fs.readFileSync(path.join(outbox, mail), 'utf8'))?.[1];
    assert.ok(token, 'the mail carries a token');
    await client.get(`/api/00000000-0000-4000-8000-000000000000/command/state/1/secret-command-token`);
    await client.get(`/verify?token=${token}&selector=abc`);

    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700, 'DATA_DIR is closed to others');
    // PGlite rewrites its relation cache files (pg_internal.init) 0644 while running: readable
    // only by whoever can enter DATA_DIR, which nobody else can.
    const open = openToOthers(dataDir).filter((entry) => !/\/pg_internal\.init 644$/.test(entry));
    assert.deepEqual(open, []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = proc.output();
    assert.match(log, /"hasLink":true/);
    assert.ok(!log.includes(token), 'the mail token is not in the log');
    assert.ok(!log.includes('secret-command-token'), 'the command token is not in the log');
    assert.match(log, /command\/state\/1\/…/);
  } finally {
    process.umask(previous);
    await proc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
