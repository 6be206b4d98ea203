import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { waitForCommand } from '../../test/support/commands.ts';
import { makeMember, makeTeam, rootFolder } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { randomToken, sha256 } from '../crypto/tokens.ts';
import { queuedSlowCommandsPerMember, slowCommandsPerTeam } from './kinds.ts';
import * as q from './queries.ts';
import type { CommandHandlers } from './registry.ts';

// Issue 10 item 6: ten Tests against a host that never answers made another team's
// downloadxmpfile wait 101 s (one global runner, two at a time, oldest first).

const finished: string[] = [];
const commandHandlers: CommandHandlers = {
  'test/sleep': async (_ctx, run) => {
    const { name } = run.payload as { name: string };
    await new Promise((resolve) => setTimeout(resolve, 300));
    finished.push(name);
    return name;
  },
};

let server: TestServer;
let silent: net.Server;
const held = new Set<net.Socket>();
before(async () => {
  // Accepts and never says a word: an FTP client waits for the greeting until its timeout (20 s).
  silent = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' }, { commandHandlers });
});
after(async () => {
  // Hanging up makes the waiting Tests fail at once instead of at their timeout.
  for (const socket of held) socket.destroy();
  await server.stop();
  await new Promise((resolve) => silent.close(resolve));
});

test("ten Tests against a silent host neither delay another team's downloadxmpfile nor queue without limit", async () => {
  const port = (silent.address() as net.AddressInfo).port;
  const attacker = await makeTeam(server, 'Slow');
  const members = [
    attacker.owner,
    ...(await Promise.all([1, 2, 3].map(() => makeMember(server, attacker, 'Photographer')))),
  ];
  const testBody = { host: '127.0.0.1', port, protocol: 'ftp', username: 'u', password: 'p', path: '' };
  let queued = 0;
  for (const member of members) {
    for (let i = 0; i < queuedSlowCommandsPerMember && queued < 10; i++, queued++) {
      const res = await member.client.post(`/api/${attacker.teamUuid}/command/testftpserver`, testBody);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
  }
  assert.equal(queued, 10);
  const tooMany = await attacker.owner.client.post(
    `/api/${attacker.teamUuid}/command/testftpserver`,
    testBody,
  );
  assert.deepEqual([tooMany.status, tooMany.body.error], [429, 'TooManyRequests']);
  assert.match(String(tooMany.body.message), /at most 3/i);
  // Let the Tests reach the silent host: no more than the team's share of the slow lane.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.ok(held.size >= 1, `${held.size} Tests are connected and waiting`);
  assert.ok(held.size <= slowCommandsPerTeam, `${held.size} of one team's Tests hold slow slots`);

  const victim = await makeTeam(server, 'Fast');
  const project = await victim.owner.client.post<{ projectId: number }>(`/api/${victim.teamUuid}/project`, {
    name: 'fast',
    parentFolderId: (await rootFolder(server, victim, 'projects')).id,
  });
  const started = Date.now();
  const download = await victim.owner.client.post<{ commandId: number; token: string }>(
    `/api/${victim.teamUuid}/command/downloadxmpfile`,
    { dbprojectid: project.body.projectId },
  );
  assert.equal(download.status, 200);
  const outcome = await waitForCommand(
    victim.owner.client,
    victim.teamUuid,
    download.body.commandId,
    download.body.token,
  );
  const waited = Date.now() - started;
  assert.equal(outcome.state, 'ok');
  assert.ok(waited < 1000, `downloadxmpfile took ${waited} ms behind ten Tests`);

  // Issue 25 item 6: the other team's own Test (against a port that refuses at once) gets a slow
  // slot now, not when the first of the ten times out (it waited 18.5 s).
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const testStarted = Date.now();
  const ownTest = await victim.owner.client.post<{ commandId: number; token: string }>(
    `/api/${victim.teamUuid}/command/testftpserver`,
    { ...testBody, port: closedPort },
  );
  assert.equal(ownTest.status, 200, JSON.stringify(ownTest.body));
  await waitForCommand(victim.owner.client, victim.teamUuid, ownTest.body.commandId, ownTest.body.token);
  const testWaited = Date.now() - testStarted;
  assert.ok(testWaited < 3000, `the other team's Test took ${testWaited} ms behind ten hanging ones`);
});

test('commands are fair across teams: a burst of one team does not make another wait behind it', async () => {
  const burst = await makeTeam(server, 'Burst');
  const other = await makeTeam(server, 'Other');
  const store = (team: { teamId: number; owner: { userId: number } }, name: string) =>
    q.insertCommand(server.running.ctx.db, {
      teamId: team.teamId,
      userId: team.owner.userId,
      kind: 'test/sleep',
      tokenHash: sha256(randomToken(18)),
      payload: { name },
    });
  const burstIds = [];
  for (let i = 0; i < 8; i++) burstIds.push((await store(burst, `burst-${i}`)).id);
  const lone = await store(other, 'other');
  const token = randomToken(18);
  await server.running.ctx.db
    .updateTable('commands')
    .set({ token_hash: sha256(token) })
    .where('id', '=', lone.id)
    .execute();
  server.running.ctx.wake.commands();
  await waitForCommand(other.owner.client, other.teamUuid, lone.id, token);
  const before = finished.filter((name) => name.startsWith('burst-')).length;
  // Two fast slots: the other team's command is next once one of the burst's frees, not ninth.
  assert.ok(before <= 4, `${before} of the burst's 8 ran before the other team's one`);
});
