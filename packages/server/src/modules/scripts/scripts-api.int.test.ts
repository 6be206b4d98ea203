import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorPositionSeparator } from '@photorelay/contract/metadata';
import { makeFolder, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { setupProject, storeScript } from '../../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

describe('script storage', () => {
  test('storescriptfile checks the syntax, GET shows the script, DELETE removes it', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const project = await setupProject(server, team, 'Scripted');
    const url = `/api/${team.teamUuid}/project/${project.id}/script`;
    assert.deepEqual((await c.get(url)).body, { script: [] });

    const broken = await storeScript(c, team, { dbprojectid: project.id }, "meta.set('caption',\n  'x' +);");
    assert.equal(broken.state, 'error');
    const [position, message] = broken.detail.split(errorPositionSeparator);
    assert.equal(position, '2:8');
    assert.match(message ?? '', /unexpected token/);
    assert.deepEqual((await c.get(url)).body, { script: [] }, 'a broken script is not stored');

    const source = "meta.set('caption', file.name);\n";
    const stored = await storeScript(
      c,
      team,
      { dbprojectid: project.id },
      `data:text/plain;base64,${Buffer.from(source).toString('base64')}`,
      'caption.script',
    );
    assert.equal(stored.state, 'ok', JSON.stringify(stored.detail));
    assert.deepEqual((await c.get(url)).body, { script: [{ filename: 'caption.script', source }] });
    // A new upload replaces the script.
    assert.equal((await storeScript(c, team, { dbprojectid: project.id }, 'log(1)', 'b.script')).state, 'ok');
    assert.deepEqual((await c.get(url)).body, { script: [{ filename: 'b.script', source: 'log(1)' }] });

    assert.deepEqual((await c.del(url)).body, { result: 'OK' });
    assert.deepEqual((await c.get(url)).body, { script: [] });
  });

  test('folders of type projects have a script; other folders and file types are refused', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const sub = await makeFolder(server, team, projects.id, 'News');
    assert.equal(
      (await storeScript(c, team, { dbfolderid: sub }, "meta.add('keywords', 'news')")).state,
      'ok',
    );
    assert.equal(
      ((await c.get(`/api/${team.teamUuid}/folder/${sub}/script`)).body as { script: unknown[] }).script
        .length,
      1,
    );
    const servers = await rootFolder(server, team, 'ftpservers');
    const wrongType = await storeScript(c, team, { dbfolderid: servers.id }, 'log(1)');
    assert.equal(wrongType.state, 'error');
    assert.match(wrongType.detail, /type projects/);
    const notScript = await c.post(`/api/${team.teamUuid}/command/storescriptfile`, {
      filename: 'a.js',
      content: 'log(1)',
      dbfolderid: sub,
    });
    assert.equal(notScript.status, 400);
    const both = await c.post(`/api/${team.teamUuid}/command/storescriptfile`, {
      filename: 'a.script',
      content: 'log(1)',
      dbfolderid: sub,
      dbprojectid: 1,
    });
    assert.equal(both.status, 400);
  });

  test('read-only members may read but not change; another team sees nothing', async () => {
    const team = await makeTeam(server);
    const project = await setupProject(server, team, 'Guarded');
    assert.equal(
      (await storeScript(team.owner.client, team, { dbprojectid: project.id }, 'log(1)')).state,
      'ok',
    );
    const url = `/api/${team.teamUuid}/project/${project.id}/script`;

    const photographer = await makeMember(server, team, 'Photographer');
    const projects = await rootFolder(server, team, 'projects');
    await server.running.ctx.db
      .insertInto('folder_permissions')
      .values({
        team_id: team.teamId,
        folder_id: projects.id,
        user_id: photographer.userId,
        group_id: null,
        permissions: ['read'],
      })
      .execute();
    assert.equal((await photographer.client.get(url)).status, 200);
    assert.equal((await photographer.client.del(url)).status, 403);
    const refused = await storeScript(photographer.client, team, { dbprojectid: project.id }, 'log(2)');
    assert.equal(refused.state, 'error');

    const other = await makeTeam(server);
    assert.equal(
      (await other.owner.client.get(`/api/${other.teamUuid}/project/${project.id}/script`)).status,
      404,
    );
    assert.equal(
      (await other.owner.client.del(`/api/${other.teamUuid}/project/${project.id}/script`)).status,
      404,
    );
    const foreign = await storeScript(other.owner.client, other, { dbprojectid: project.id }, 'log(3)');
    assert.equal(foreign.state, 'error');
    assert.deepEqual((await team.owner.client.get(url)).body, {
      script: [{ filename: 'test.script', source: 'log(1)' }],
    });
  });
});
