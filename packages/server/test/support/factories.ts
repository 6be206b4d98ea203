import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../src/crypto/tokens.ts';
import * as accountQueries from '../../src/modules/account/queries.ts';
import { provisionNextTeam } from '../../src/modules/teams/provisioning.ts';
import * as teamQueries from '../../src/modules/teams/queries.ts';
import { createTeamOwnedBy } from '../../src/modules/teams/service.ts';
import type { GroupName } from '../../src/db/schema.ts';
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
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}
