import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeFolder, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const serverBody = (name: string, parentFolderId: number) => ({
  name,
  host: 'h.example.com',
  protocol: 'sftp',
  username: 'u',
  password: 'p',
  parentFolderId,
});

test('a second project, FTP server or folder of one name in one folder is refused, ignoring case', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const projects = await rootFolder(server, team, 'projects');
  const servers = await rootFolder(server, team, 'ftpservers');
  const other = await makeFolder(server, team, projects.id, 'Other');

  const first = await c.post<{ projectId: number }>(`${base}/project`, {
    name: 'Bundesliga',
    parentFolderId: projects.id,
  });
  assert.equal(first.status, 200);
  const again = await c.post<{ error: string }>(`${base}/project`, {
    name: ' bundesLIGA ',
    parentFolderId: projects.id,
  });
  assert.deepEqual([again.status, again.body.error], [409, 'NameTaken']);
  // The same name in another folder is fine; moving it next to its namesake is not.
  const elsewhere = await c.post<{ projectId: number }>(`${base}/project`, {
    name: 'BUNDESLIGA',
    parentFolderId: other,
  });
  assert.equal(elsewhere.status, 200);
  assert.equal(
    (await c.post(`${base}/folder/${projects.id}/project/${elsewhere.body.projectId}`)).status,
    409,
  );
  const second = await c.post<{ projectId: number }>(`${base}/project`, {
    name: 'Cup',
    parentFolderId: projects.id,
  });
  assert.equal((await c.put(`${base}/project/${second.body.projectId}`, { name: 'bundesliga' })).status, 409);
  assert.equal(
    (await c.put(`${base}/project/${first.body.projectId}`, { name: 'BundesLiga' })).status,
    200,
    'own name in another case',
  );
  const names = await server.running.ctx.db
    .selectFrom('projects')
    .select('name')
    .where('team_id', '=', team.teamId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    names.map((r) => r.name),
    ['BundesLiga', 'BUNDESLIGA', 'Cup'],
    'refusals change nothing',
  );

  assert.equal((await c.post(`${base}/ftpserver`, serverBody('Agency', servers.id))).status, 200);
  assert.equal((await c.post(`${base}/ftpserver`, serverBody('AGENCY', servers.id))).status, 409);
  const b = await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, serverBody('Bureau', servers.id));
  assert.equal((await c.put(`${base}/ftpserver/${b.body.ftpserverid}`, { name: 'agency' })).status, 409);

  assert.equal((await c.post(`${base}/folder`, { name: 'other', parentFolderId: projects.id })).status, 409);
  const sub = await makeFolder(server, team, other, 'Sub');
  assert.equal((await c.put(`${base}/folder/${sub}`, { newName: 'x' })).status, 200);
  const twin = await makeFolder(server, team, projects.id, 'X');
  assert.equal((await c.post(`${base}/folder/${projects.id}/folder/${sub}`)).status, 409, 'move next to X');
  assert.equal((await c.put(`${base}/folder/${twin}`, { newName: 'other' })).status, 409);
});
