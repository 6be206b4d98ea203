import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TreeNode } from '@photorelay/contract/folders';
import { grant, makeFolder, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import * as accountQueries from '../account/queries.ts';
import * as teamQueries from '../teams/queries.ts';

// Issue 10 item 14: config files by name follow the list's permission, and the permission dialog
// neither offers pending invitees nor shows members' addresses to folder admins who do not
// administer the team's users.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const dataUrl = (text: string) => `data:application/json;base64,${Buffer.from(text).toString('base64')}`;

test('a photographer reads the calendar categories by name, but no other config file', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const saved = await team.owner.client.post(`${base}/file`, {
    name: 'agency-codes.json',
    content: dataUrl('{"ftp":"secret"}'),
  });
  assert.equal(saved.status, 200);
  const photographer = await makeMember(server, team, 'Photographer');
  const res = await photographer.client.get(`${base}/file/agency-codes.json`);
  assert.deepEqual([res.status, res.body.error], [403, 'MissingPermission']);
  assert.equal((await photographer.client.get(`${base}/file/sport.json`)).status, 200);
  assert.equal((await photographer.client.get(`${base}/file/NEWS.json`)).status, 404, 'exact names only');
  assert.equal((await team.owner.client.get(`${base}/file/agency-codes.json`)).status, 200);
});

test('no permission for a pending invitee, and no addresses for a folder admin who is not a user admin', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const root = await rootFolder(server, team, 'projects');
  const folder = await makeFolder(server, team, root.id, 'Shared');
  const db = server.running.ctx.db;

  // An unverified account in the team (as an invitation before this fix left one).
  const pendingId = await accountQueries.insertUser(db, {
    email: `pending-${Date.now()}@example.com`,
    passwordHash: '',
    firstName: '',
    lastName: '',
    language: 'en',
    timezone: 'Europe/Berlin',
    verified: false,
  });
  const photographers = await teamQueries.findGroupByName(db, team.teamId, 'Photographer');
  await teamQueries.insertMember(db, team.teamId, pendingId, photographers.id);
  const refused = await team.owner.client.put(`${base}/folder/${folder}/permission/user/${pendingId}`, [
    'read',
  ]);
  assert.deepEqual([refused.status, refused.body.error], [404, 'NotFound']);

  const folderAdmin = await makeMember(server, team, 'Photographer');
  const colleague = await makeMember(server, team, 'Photographer');
  await grant(server, team, folder, { userId: folderAdmin.userId }, ['read', 'write', 'folder_admin']);
  assert.equal(
    (await folderAdmin.client.put(`${base}/folder/${folder}/permission/user/${colleague.userId}`, ['read']))
      .status,
    200,
  );
  const seen = await folderAdmin.client.get<{ folder: TreeNode[] }>(`${base}/folder/${folder}`);
  const labels = seen.body.folder[0].permissions.users.map((u) => u.email);
  assert.equal(labels.length, 2);
  assert.ok(
    labels.every((label) => !label.includes('@')),
    `no addresses: ${labels.join(', ')}`,
  );
  const tree = JSON.stringify((await folderAdmin.client.get(`${base}/folders`)).body);
  assert.equal(tree.includes(colleague.email), false);

  const asOwner = await team.owner.client.get<{ folder: TreeNode[] }>(`${base}/folder/${folder}`);
  assert.deepEqual(
    asOwner.body.folder[0].permissions.users.map((u) => u.email).sort(),
    [folderAdmin.email, colleague.email].sort(),
  );
});
