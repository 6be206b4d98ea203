import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCommand } from '../../../test/support/commands.ts';
import { grant, makeFolder, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type ProjectBody = {
  project: {
    name: string;
    canWrite: boolean;
    ftpAccounts: Array<{ username: string; password: string }>;
    ingest: { host: string; ftpPort: number; sftpPort: number };
    ftpServers: Array<{ id: number; path: string; overridepath: string | null; enabled: boolean }>;
    otherFtpServers: Array<{ id: number }>;
    otherProjects: Array<{ id: number }>;
    destinationProjects: Array<{ id: number; enabled: boolean }>;
  };
};

test('create, read, rename, destinations and delete; passwords never leave encrypted at rest', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const projects = await rootFolder(server, team, 'projects');
  const servers = await rootFolder(server, team, 'ftpservers');

  assert.equal((await c.post(`${base}/project`, { name: '', parentFolderId: projects.id })).status, 400);
  assert.equal(
    (await c.post(`${base}/project`, { name: 'x'.repeat(65), parentFolderId: projects.id })).status,
    400,
  );
  assert.equal(
    (await c.post(`${base}/project`, { name: 'wrong tree', parentFolderId: servers.id })).status,
    400,
  );
  const a = (
    await c.post<{ projectId: number }>(`${base}/project`, {
      name: 'x'.repeat(64),
      parentFolderId: projects.id,
    })
  ).body.projectId;
  const b = (
    await c.post<{ projectId: number }>(`${base}/project`, {
      name: 'Bundesliga',
      parentFolderId: projects.id,
    })
  ).body.projectId;

  const read = await c.get<ProjectBody>(`${base}/project/${a}`);
  const account = read.body.project.ftpAccounts[0];
  assert.match(account.username, /^pr[a-z0-9]{8}$/);
  assert.ok(account.password.length >= 20);
  const row = await server.running.ctx.db
    .selectFrom('projects')
    .select('ingest_password_enc')
    .where('id', '=', a)
    .executeTakeFirstOrThrow();
  assert.ok(!row.ingest_password_enc.includes(account.password), 'stored encrypted');
  assert.equal(read.body.project.ingest.ftpPort, server.running.ingest?.ftpPort);
  assert.deepEqual(
    read.body.project.otherProjects.map((p) => p.id),
    [b],
  );

  assert.equal((await c.put(`${base}/project/${a}`, { name: 'Renamed' })).status, 200);
  assert.equal((await c.get<ProjectBody>(`${base}/project/${a}`)).body.project.name, 'Renamed');

  const server1 = await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, {
    name: 'dpa',
    host: 'ftp.example.com',
    port: '21',
    path: '/in',
    protocol: 'ftp',
    username: 'u',
    password: 'secret-pw',
    parentFolderId: servers.id,
  });
  assert.equal(server1.status, 200);
  const sid = server1.body.ftpserverid;
  assert.equal((await c.post(`${base}/project/${a}/ftpserver/${sid}`)).status, 200);
  assert.equal((await c.put(`${base}/project/${a}/ftpserver/${sid}`, { path: '/override' })).status, 200);
  assert.equal((await c.post(`${base}/project/${a}/destinationproject/${b}`)).status, 200);
  assert.equal((await c.put(`${base}/project/${a}/destinationproject/${b}`, { enabled: false })).status, 200);
  const linked = (await c.get<ProjectBody>(`${base}/project/${a}`)).body.project;
  assert.deepEqual(
    linked.ftpServers.map((s) => [s.id, s.path, s.overridepath, s.enabled]),
    [[sid, '/override', '/override', true]],
  );
  assert.deepEqual(
    linked.destinationProjects.map((p) => [p.id, p.enabled]),
    [[b, false]],
  );
  assert.deepEqual(linked.otherFtpServers, []);
  assert.equal((await c.put(`${base}/project/${a}/ftpserver/${sid}`, { path: '' })).status, 200);
  assert.equal(
    (await c.get<ProjectBody>(`${base}/project/${a}`)).body.project.ftpServers[0].path,
    '/in',
    'empty path falls back',
  );

  assert.equal((await c.del(`${base}/project/${a}/ftpserver/${sid}`)).status, 200);
  assert.equal((await c.del(`${base}/project/${a}/ftpserver/${sid}`)).status, 404);
  assert.equal((await c.del(`${base}/project/${a}/destinationproject/${b}`)).status, 200);
  assert.equal((await c.del(`${base}/project/${a}`)).status, 200);
  assert.equal((await c.get(`${base}/project/${a}`)).status, 404);
});

test('read-only members see the project but cannot change it; unreadable servers are not offered', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const projects = await rootFolder(server, team, 'projects');
  const servers = await rootFolder(server, team, 'ftpservers');
  const folder = await makeFolder(server, team, projects.id, 'shared');
  const p = (
    await c.post<{ projectId: number }>(`${base}/project`, { name: 'Shared', parentFolderId: folder })
  ).body.projectId;
  const sid = (
    await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, {
      name: 'hidden',
      host: 'h.example.com',
      protocol: 'sftp',
      username: 'u',
      password: 'p',
      parentFolderId: servers.id,
    })
  ).body.ftpserverid;
  const reader = await makeMember(server, team, 'Photographer');
  await grant(server, team, folder, { userId: reader.userId }, ['read']);

  const view = await reader.client.get<ProjectBody>(`${base}/project/${p}`);
  assert.equal(view.status, 200);
  assert.equal(view.body.project.canWrite, false);
  assert.deepEqual(view.body.project.otherFtpServers, [], 'servers they cannot read are not offered');
  assert.equal((await reader.client.put(`${base}/project/${p}`, { name: 'mine' })).status, 403);
  assert.equal((await reader.client.del(`${base}/project/${p}`)).status, 403);
  assert.equal((await reader.client.get(`${base}/ftpserver/${sid}`)).status, 404);

  const writer = await makeMember(server, team, 'Photographer');
  await grant(server, team, folder, { userId: writer.userId }, ['read', 'write']);
  assert.equal(
    (await writer.client.post(`${base}/project/${p}/ftpserver/${sid}`)).status,
    404,
    'cannot add a server it cannot read',
  );
});

test('FTP server form rules, password kept secret, Test command answers with the server text', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const servers = await rootFolder(server, team, 'ftpservers');
  const body = {
    name: 'Agency',
    host: '127.0.0.1',
    port: '',
    path: 'in',
    protocol: 'ftp',
    username: 'u',
    password: 'hunter22',
    parentFolderId: servers.id,
  };
  for (const [label, change] of [
    ['port 0', { port: '0' }],
    ['port 65536', { port: '65536' }],
    ['port letters', { port: '21a' }],
    ['blank name', { name: '  ' }],
    ['no host', { host: '' }],
    ['long name', { name: 'x'.repeat(65) }],
    ['long host', { host: 'x'.repeat(257) }],
    ['protocol', { protocol: 'http' }],
  ] as const) {
    assert.equal((await c.post(`${base}/ftpserver`, { ...body, ...change })).status, 400, label);
  }
  const created = await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, body);
  assert.equal(created.status, 200);
  const id = created.body.ftpserverid;
  const read = await c.get<{
    ftpserver: {
      password: string;
      passwordSet: boolean;
      port: number | null;
      protocol: string;
      maxConnections: number;
    };
  }>(`${base}/ftpserver/${id}`);
  assert.deepEqual(
    [
      read.body.ftpserver.password,
      read.body.ftpserver.passwordSet,
      read.body.ftpserver.port,
      read.body.ftpserver.maxConnections,
    ],
    ['', true, null, 4],
  );
  assert.ok(!JSON.stringify(read.body).includes('hunter22'));
  // An empty password keeps the stored one only while the connection stays the same (issue 10 item 1).
  assert.equal(
    (await c.put(`${base}/ftpserver/${id}`, { ...body, password: '', maxConnections: 1 })).status,
    200,
  );
  assert.equal((await c.put(`${base}/ftpserver/${id}`, { ...body, password: '', port: 2121 })).status, 400);
  assert.equal(
    (await c.put(`${base}/ftpserver/${id}`, { ...body, password: 'hunter23', port: 2121, maxConnections: 1 }))
      .status,
    200,
  );
  const stored = await server.running.ctx.db
    .selectFrom('ftp_servers')
    .select(['password_enc', 'port', 'max_connections'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.port, 2121);
  assert.equal(stored.max_connections, 1);
  assert.ok(!stored.password_enc.includes('hunter22'));
  assert.equal((await c.put(`${base}/ftpserver/${id}`, { name: 'Renamed' })).status, 200);
  const list = await c.get<{ ftpservers: Array<{ name: string }> }>(`${base}/ftpservers`);
  assert.deepEqual(
    list.body.ftpservers.map((s) => s.name),
    ['Renamed'],
  );

  // Test: ALLOW_PRIVATE_NETWORKS is off here, so loopback is refused with a clear text.
  const state = await runCommand(c, team.teamUuid, 'testftpserver', {
    host: '127.0.0.1',
    port: 21,
    username: 'u',
    password: 'p',
    protocol: 'ftp',
  });
  assert.equal(state.state, 'error');
  assert.match(String(state.detail), /private|loopback|not allowed/i);

  assert.equal((await c.del(`${base}/ftpserver/${id}`)).status, 200);
  assert.equal((await c.get(`${base}/ftpserver/${id}`)).status, 404);
});
