import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import type { TestClient } from '../../../test/support/client.ts';
import { type CommandOutcome, waitForCommand } from '../../../test/support/commands.ts';
import { grant, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 10 item 1: a saved destination password is used only with its stored connection, and
// only by members who may change that server.

let server: TestServer;
let trap: net.Server;
let trapPort = 0;
const heard: string[] = [];

before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
  // The attacker's "FTP server": it writes down every password it is sent.
  trap = net.createServer((socket) => {
    socket.write('220 hello\r\n');
    socket.on('data', (data) => {
      for (const line of data.toString('utf8').split('\r\n').filter(Boolean)) {
        if (line.startsWith('PASS ')) heard.push(line.slice(5));
        socket.write(line.startsWith('USER ') ? '331 password please\r\n' : '530 no\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as net.AddressInfo).port;
});
after(async () => {
  await new Promise((resolve) => trap.close(resolve));
  await server.stop();
});

const stored = { host: 'ftp.agency.example', port: 21, protocol: 'ftp', username: 'agency' } as const;

async function teamWithServer() {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const folder = await rootFolder(server, team, 'ftpservers');
  const created = await team.owner.client.post<{ ftpserverid: number }>(`${base}/ftpserver`, {
    name: 'Agency',
    ...stored,
    password: 'stored-secret',
    parentFolderId: folder.id,
  });
  assert.equal(created.status, 200);
  return { team, base, folder, id: created.body.ftpserverid };
}

async function startTest(client: TestClient, teamUuid: string, body: object) {
  const res = await client.post<{ commandId: number; token: string }>(
    `/api/${teamUuid}/command/testftpserver`,
    body,
  );
  if (res.status !== 200) return { status: res.status, error: (res.body as { error?: string }).error };
  const outcome: CommandOutcome<unknown> = await waitForCommand(
    client,
    teamUuid,
    res.body.commandId,
    res.body.token,
  );
  return { status: 200, outcome };
}

test('a read-only member cannot test with the stored password, not even against its own host', async () => {
  const { team, folder, id } = await teamWithServer();
  const reader = await makeMember(server, team, 'Photographer');
  await grant(server, team, folder.id, { userId: reader.userId }, ['read']);
  const attack = await startTest(reader.client, team.teamUuid, {
    ...stored,
    host: '127.0.0.1',
    port: trapPort,
    password: '',
    ftpserverid: id,
  });
  assert.deepEqual(attack, { status: 403, error: 'MissingPermission' });
  const same = await startTest(reader.client, team.teamUuid, { ...stored, ftpserverid: id });
  assert.deepEqual(same, { status: 403, error: 'MissingPermission' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(heard, []);
});

test('a writer testing a changed host, port, protocol or user name must type the password', async () => {
  const { team, id } = await teamWithServer();
  for (const change of [
    { host: '127.0.0.1', port: trapPort },
    { port: trapPort },
    { protocol: 'ftps' },
    { username: 'someone' },
  ]) {
    const res = await startTest(team.owner.client, team.teamUuid, { ...stored, ...change, ftpserverid: id });
    assert.deepEqual(res, { status: 400, error: 'ValidationError' }, JSON.stringify(change));
  }
  // With the password typed again it is a plain test of the given connection.
  const typed = await startTest(team.owner.client, team.teamUuid, {
    ...stored,
    host: '127.0.0.1',
    port: trapPort,
    password: 'typed-again',
    ftpserverid: id,
  });
  assert.equal(typed.status, 200);
  assert.deepEqual(heard, ['typed-again']);
  heard.length = 0;
});

test('saving a changed connection without the password is refused and changes nothing', async () => {
  const { team, base, id } = await teamWithServer();
  const moved = await team.owner.client.put(`${base}/ftpserver/${id}`, {
    name: 'Agency',
    ...stored,
    host: '127.0.0.1',
    port: trapPort,
    password: '',
  });
  assert.deepEqual([moved.status, moved.body.error], [400, 'ValidationError']);
  const row = await team.owner.client.get<{ ftpserver: { host: string; port: number } }>(
    `${base}/ftpserver/${id}`,
  );
  assert.deepEqual([row.body.ftpserver.host, row.body.ftpserver.port], [stored.host, stored.port]);
  // The same connection with an empty password keeps the stored one; so does a rename.
  const kept = await team.owner.client.put(`${base}/ftpserver/${id}`, {
    name: 'Agency 2',
    ...stored,
    host: 'FTP.Agency.Example',
    password: '',
  });
  assert.equal(kept.status, 200);
  assert.equal((await team.owner.client.put(`${base}/ftpserver/${id}`, { name: 'Agency 3' })).status, 200);
  assert.deepEqual(heard, []);
});
