import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../src/crypto/tokens.ts';
import type { GroupName } from '../../src/db/schema.ts';
import * as accountQueries from '../../src/modules/account/queries.ts';
import { provisionNextTeam } from '../../src/modules/teams/provisioning.ts';
import * as teamQueries from '../../src/modules/teams/queries.ts';
import { createTeamOwnedBy } from '../../src/modules/teams/service.ts';
import type { TestClient } from './client.ts';
import type { TestServer } from './server.ts';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
export const testPassword = 'correct horse battery';

/** A verified user straight in the database (faster than the mail round trip). */
export async function makeUser(server: TestServer, options: { email?: string; firstName?: string } = {}) {
  const db = server.running.ctx.db;
  const email = options.email ?? uniqueEmail();
  const userId = await accountQueries.insertUser(db, {
    email,
    passwordHash: await hashPassword(testPassword),
    firstName: options.firstName ?? 'Test',
    lastName: 'User',
    language: 'en',
    timezone: 'Europe/Berlin',
    verified: true,
  });
  return { userId, email };
}

/** A ready team with its owner logged in. */
export async function makeTeam(server: TestServer, name = 'Team') {
  const db = server.running.ctx.db;
  const owner = await makeUser(server, { firstName: 'Owner' });
  const team = await createTeamOwnedBy(db, `${name} ${randomUUID().slice(0, 6)}`, owner.userId);
  await accountQueries.setCurrentTeam(db, owner.userId, team.teamId);
  while (await provisionNextTeam(db)) {}
  const client = await login(server, owner.email);
  return { ...team, owner: { ...owner, client } };
}

/** A member of `team` in the given group, logged in. */
export async function makeMember(server: TestServer, team: { teamId: number }, group: GroupName) {
  const db = server.running.ctx.db;
  const user = await makeUser(server, { firstName: group });
  const groupRow = await teamQueries.findGroupByName(db, team.teamId, group);
  await teamQueries.insertMember(db, team.teamId, user.userId, groupRow.id);
  return { ...user, client: await login(server, user.email) };
}

export async function login(server: TestServer, email: string, password = testPassword): Promise<TestClient> {
  const client = server.client();
  const res = await client.post('/api/user/login', { email, password });
  if (res.status !== 200)
    throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

/** A root folder of the team by type (projects, ftpservers, calendars, settings). */
export async function rootFolder(
  server: TestServer,
  team: { teamId: number },
  type: 'projects' | 'ftpservers' | 'calendars' | 'settings',
) {
  return server.running.ctx.db
    .selectFrom('folders')
    .select(['id', 'name', 'type'])
    .where('team_id', '=', team.teamId)
    .where('parent_id', 'is', null)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
}

export async function makeFolder(
  server: TestServer,
  team: { teamId: number },
  parentId: number,
  name: string,
) {
  const parent = await server.running.ctx.db
    .selectFrom('folders')
    .select('type')
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  const row = await server.running.ctx.db
    .insertInto('folders')
    .values({ team_id: team.teamId, parent_id: parentId, type: parent.type, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function grant(
  server: TestServer,
  team: { teamId: number },
  folderId: number,
  to: { userId: number } | { groupId: number },
  permissions: Array<'read' | 'write' | 'folder_admin'>,
) {
  await server.running.ctx.db
    .insertInto('folder_permissions')
    .values({
      team_id: team.teamId,
      folder_id: folderId,
      user_id: 'userId' in to ? to.userId : null,
      group_id: 'groupId' in to ? to.groupId : null,
      permissions,
    })
    .execute();
}

/**
 * A project of the team with one FTP server as its destination, made through the API as the
 * owner. The server points at 127.0.0.1:21 unless `serverFields` says otherwise (tests that
 * deliver nowhere, or to a port where nothing listens).
 */
export async function makeProjectWithServer(
  server: TestServer,
  team: { teamId: number; teamUuid: string; owner: { client: TestClient } },
  name: string,
  serverFields: Record<string, unknown> = {},
) {
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const created = await c.post<{ projectId: number }>(`${base}/project`, {
    name,
    parentFolderId: (await rootFolder(server, team, 'projects')).id,
  });
  const added = await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, {
    name: `${name} server`,
    host: '127.0.0.1',
    port: 21,
    protocol: 'ftp',
    username: 'u',
    password: 'p',
    parentFolderId: (await rootFolder(server, team, 'ftpservers')).id,
    ...serverFields,
  });
  if (created.status !== 200 || added.status !== 200)
    throw new Error(`project or server refused: ${JSON.stringify([created.body, added.body])}`);
  const projectId = created.body.projectId;
  await c.post(`${base}/project/${projectId}/ftpserver/${added.body.ftpserverid}`);
  const project = await c.get<{ project: { ftpAccounts: Array<{ username: string; password: string }> } }>(
    `${base}/project/${projectId}`,
  );
  return { projectId, serverId: added.body.ftpserverid, account: project.body.project.ftpAccounts[0] };
}
