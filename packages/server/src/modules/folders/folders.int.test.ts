import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TreeNode } from '@photorelay/contract/folders';
import { grant, makeFolder, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

async function insertProject(teamId: number, folderId: number, name: string) {
  const row = await server.running.ctx.db
    .insertInto('projects')
    .values({
      team_id: teamId,
      folder_id: folderId,
      name,
      ingest_username: `p-${name}-${Math.random().toString(36).slice(2, 10)}`,
      ingest_password_enc: 'x',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('tree', () => {
  test('roots in order, items sorted, settings holds users and config files', async () => {
    const team = await makeTeam(server);
    const projects = await rootFolder(server, team, 'projects');
    const sub = await makeFolder(server, team, projects.id, 'bundesliga');
    await insertProject(team.teamId, projects.id, 'Zebra');
    await insertProject(team.teamId, projects.id, 'alpha');
    await insertProject(team.teamId, sub, 'Spieltag 1');
    const res = await team.owner.client.get<{ folders: TreeNode[] }>(`/api/${team.teamUuid}/folders`);
    assert.equal(res.status, 200);
    const roots = res.body.folders;
    assert.deepEqual(
      roots.map((r) => [r.type, r.parent, r.isRoot]),
      [
        ['projects', -1, true],
        ['ftpservers', -1, true],
        ['calendars', -1, true],
        ['settings', -1, true],
      ],
    );
    assert.deepEqual(
      roots[0].children.map((c) => c.name),
      ['alpha', 'bundesliga', 'Zebra'],
    );
    assert.deepEqual(
      roots[0].children[1].children.map((c) => [c.type, c.name]),
      [['project', 'Spieltag 1']],
    );
    assert.deepEqual(
      roots[2].children.map((c) => c.type),
      ['calendar'],
    );
    assert.deepEqual(
      roots[3].children.map((c) => c.type),
      ['configfiles', 'users'],
    );
    assert.ok(flatten(roots).every((n) => n.isFolderAdmin && n.canWrite));
    const keys = flatten(roots).map((n) => n.key);
    assert.equal(new Set(keys).size, keys.length, 'keys are unique');
  });

  test('a photographer sees only what they may read, with the path to it', async () => {
    const team = await makeTeam(server);
    const projects = await rootFolder(server, team, 'projects');
    const open = await makeFolder(server, team, projects.id, 'open');
    const hidden = await makeFolder(server, team, projects.id, 'hidden');
    await insertProject(team.teamId, open, 'visible project');
    await insertProject(team.teamId, hidden, 'secret project');
    const photographer = await makeMember(server, team, 'Photographer');
    const before = await photographer.client.get<{ folders: TreeNode[] }>(`/api/${team.teamUuid}/folders`);
    assert.deepEqual(before.body.folders, []);

    await grant(server, team, open, { userId: photographer.userId }, ['read']);
    const after = await photographer.client.get<{ folders: TreeNode[] }>(`/api/${team.teamUuid}/folders`);
    const names = flatten(after.body.folders).map((n) => n.name);
    assert.deepEqual(names, ['projects', 'open', 'visible project']);
    const openNode = flatten(after.body.folders).find((n) => n.name === 'open');
    assert.equal(openNode?.canWrite, false);
    assert.equal(openNode?.isFolderAdmin, false);
    assert.equal((await photographer.client.get(`/api/${team.teamUuid}/folder/${hidden}`)).status, 404);
    assert.equal((await photographer.client.get(`/api/${team.teamUuid}/folder/${open}`)).status, 200);
  });
});

describe('folder operations', () => {
  test('create, rename (both field names), move and delete with the rules enforced', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const base = `/api/${team.teamUuid}`;
    const projects = await rootFolder(server, team, 'projects');
    const ftpservers = await rootFolder(server, team, 'ftpservers');
    const settings = await rootFolder(server, team, 'settings');

    const created = await client.post<{ result: string; folderId: number }>(`${base}/folder`, {
      parentFolderId: projects.id,
      name: 'Fußball',
      type: 'projects',
    });
    assert.equal(created.body.result, 'OK');
    const a = created.body.folderId;
    const b = (
      await client.post<{ folderId: number }>(`${base}/folder`, { parentFolderId: a, name: 'Bundesliga' })
    ).body.folderId;
    assert.equal(
      (await client.post(`${base}/folder`, { parentFolderId: settings.id, name: 'x' })).status,
      400,
      'no folders in settings',
    );
    assert.equal(
      (await client.post(`${base}/folder`, { parentFolderId: projects.id, name: 'x', type: 'ftpservers' }))
        .status,
      400,
    );
    assert.equal(
      (await client.post(`${base}/folder`, { parentFolderId: projects.id, name: '   ' })).status,
      400,
    );
    assert.equal(
      (await client.post(`${base}/folder`, { parentFolderId: projects.id, name: 'x'.repeat(101) })).status,
      400,
    );

    assert.equal((await client.put(`${base}/folder/${a}`, { id: a, newName: 'Football' })).status, 200);
    assert.equal((await client.put(`${base}/folder/${b}`, { name: '1. Bundesliga' })).status, 200);
    assert.equal(
      (await client.put(`${base}/folder/${projects.id}`, { newName: 'nope' })).status,
      400,
      'roots keep their name',
    );
    const names = await server.running.ctx.db
      .selectFrom('folders')
      .select('name')
      .where('id', 'in', [a, b])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      names.map((n) => n.name),
      ['Football', '1. Bundesliga'],
    );

    // Moves: never into itself or below itself, never across types.
    assert.equal((await client.post(`${base}/folder/${b}/folder/${a}`)).status, 400);
    assert.equal((await client.post(`${base}/folder/${a}/folder/${a}`)).status, 400);
    assert.equal((await client.post(`${base}/folder/${ftpservers.id}/folder/${b}`)).status, 400);
    assert.equal((await client.post(`${base}/folder/${a}/folder/${projects.id}`)).status, 400, 'roots stay');
    assert.equal((await client.post(`${base}/folder/${projects.id}/folder/${b}`)).status, 200);
    const project = await insertProject(team.teamId, projects.id, 'Derby');
    assert.equal((await client.post(`${base}/folder/${ftpservers.id}/project/${project}`)).status, 400);
    assert.equal((await client.post(`${base}/folder/${a}/project/${project}`)).status, 200);

    // Delete: only empty, never roots.
    assert.equal((await client.del(`${base}/folder/${a}`)).status, 409, 'holds a project');
    assert.equal((await client.del(`${base}/folder/${projects.id}`)).status, 400);
    assert.equal((await client.del(`${base}/folder/${b}`)).status, 200);
    assert.equal((await client.get(`${base}/folder/${b}`)).status, 404);
  });

  test("another team's folders, projects and ids answer 404 and change nothing", async () => {
    const a = await makeTeam(server);
    const b = await makeTeam(server);
    const bProjects = await rootFolder(server, b, 'projects');
    const bFolder = await makeFolder(server, b, bProjects.id, 'theirs');
    const aProjects = await rootFolder(server, a, 'projects');
    const bProject = await insertProject(b.teamId, bProjects.id, 'theirs');
    const base = `/api/${a.teamUuid}`;
    const c = a.owner.client;
    assert.equal((await c.get(`${base}/folder/${bFolder}`)).status, 404);
    assert.equal((await c.put(`${base}/folder/${bFolder}`, { newName: 'mine' })).status, 404);
    assert.equal((await c.del(`${base}/folder/${bFolder}`)).status, 404);
    assert.equal((await c.post(`${base}/folder`, { parentFolderId: bFolder, name: 'x' })).status, 404);
    assert.equal((await c.post(`${base}/folder/${aProjects.id}/folder/${bFolder}`)).status, 404);
    assert.equal((await c.post(`${base}/folder/${aProjects.id}/project/${bProject}`)).status, 404);
    assert.equal((await c.post(`${base}/folder/${bFolder}/project/${bProject}`)).status, 404);
    assert.equal(
      (await c.put(`${base}/folder/${aProjects.id}/permission/user/${b.owner.userId}`, ['read'])).status,
      404,
    );
    const row = await server.running.ctx.db
      .selectFrom('folders')
      .select(['name', 'parent_id'])
      .where('id', '=', bFolder)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { name: 'theirs', parent_id: bProjects.id });
  });
});

describe('permissions', () => {
  test('inherit downwards, union of user and group, folder admins manage them', async () => {
    const team = await makeTeam(server);
    const base = `/api/${team.teamUuid}`;
    const projects = await rootFolder(server, team, 'projects');
    const top = await makeFolder(server, team, projects.id, 'top');
    const child = await makeFolder(server, team, top, 'child');
    const p = await makeMember(server, team, 'Photographer');
    const group = await server.running.ctx.db
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', team.teamId)
      .where('name', '=', 'Photographer')
      .executeTakeFirstOrThrow();
    const operatorGroup = await server.running.ctx.db
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', team.teamId)
      .where('name', '=', 'Operator')
      .executeTakeFirstOrThrow();

    // Owner gives the group read on top and the user write on child.
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${top}/permission/group/${group.id}`, ['read'])).status,
      200,
    );
    assert.equal(
      (
        await team.owner.client.put(`${base}/folder/${child}/permission/user/${p.userId}`, {
          permissions: ['write'],
        })
      ).status,
      200,
    );
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${top}/permission/group/${operatorGroup.id}`, ['read']))
        .status,
      400,
      'groups with all permissions excluded',
    );

    assert.equal(
      (await p.client.put(`${base}/folder/${top}`, { newName: 'x' })).status,
      403,
      'read only on top',
    );
    assert.equal(
      (await p.client.post(`${base}/folder`, { parentFolderId: child, name: 'mine' })).status,
      200,
      'write on child',
    );
    assert.equal(
      (await p.client.put(`${base}/folder/${child}/permission/user/${p.userId}`, ['folder_admin'])).status,
      403,
    );

    const node = await team.owner.client.get<{ folder: TreeNode[] }>(`${base}/folder/${child}`);
    assert.deepEqual(
      node.body.folder[0].permissions.users.map((u) => [u.email, u.permissions]),
      [[p.email, ['read', 'write']]],
    );
    const topNode = await team.owner.client.get<{ folder: TreeNode[] }>(`${base}/folder/${top}`);
    assert.deepEqual(
      topNode.body.folder[0].permissions.groups.map((g) => [g.name, g.permissions]),
      [['Photographer', ['read']]],
    );

    // Folder admin below: may manage permissions there, not above.
    await team.owner.client.put(`${base}/folder/${child}/permission/user/${p.userId}`, ['folder_admin']);
    assert.equal(
      (await p.client.put(`${base}/folder/${child}/permission/group/${group.id}`, ['write'])).status,
      200,
    );
    assert.equal(
      (await p.client.put(`${base}/folder/${top}/permission/group/${group.id}`, ['write'])).status,
      403,
    );
    const childAsP = await p.client.get<{ folder: TreeNode[] }>(`${base}/folder/${child}`);
    assert.equal(childAsP.body.folder[0].isFolderAdmin, true);

    // An empty list removes.
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${child}/permission/user/${p.userId}`, [])).status,
      200,
    );
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${child}/permission/group/${group.id}`, [])).status,
      200,
    );
    assert.equal(
      (await p.client.post(`${base}/folder`, { parentFolderId: child, name: 'again' })).status,
      403,
      'only read from top is left',
    );
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${top}/permission/user/999999`, ['read'])).status,
      404,
    );
    assert.equal(
      (await team.owner.client.put(`${base}/folder/${top}/permission/user/${p.userId}`, ['fly'])).status,
      400,
    );
  });
});
