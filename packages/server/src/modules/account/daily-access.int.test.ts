import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeMember, makeTeam, testPassword, uniqueEmail } from '../../../test/support/factories.ts';
import { linkIn } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 16 item 10: the dead ends of a first day.

let server: TestServer;
before(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT: '3' });
});
after(() => server.stop());

test('an unverified account can have its verification mail again, rate limited', async () => {
  const email = uniqueEmail('late');
  const client = server.client();
  const registered = await client.post('/api/user/register', {
    email,
    firstName: 'Lea',
    lastName: 'Late',
    password: testPassword,
    companyName: 'Late Media',
  });
  assert.equal(registered.status, 200);
  await server.mail.waitFor(email, () => true);
  const login = await client.post<{ error: string }>('/api/user/login', { email, password: testPassword });
  assert.equal(login.body.error, 'EmailNotVerified');

  const unknown = await client.post('/api/user/resendVerification', { email: uniqueEmail('nobody') });
  assert.deepEqual(
    [unknown.status, unknown.body],
    [200, { result: 'OK' }],
    'same answer for unknown addresses',
  );
  const before = server.mail.mails.filter((m) => m.to === email).length;
  assert.equal(
    (await client.post('/api/user/resendVerification', { email: email.toUpperCase() })).status,
    200,
  );
  await server.mail.waitFor(email, () => server.mail.mails.filter((m) => m.to === email).length > before);
  const mail = server.mail.mails.filter((m) => m.to === email).at(-1);
  assert.ok(mail);
  const link = linkIn(mail);
  assert.equal(link.pathname, '/verify');
  const verified = await client.post('/api/user/verify', {
    token: link.searchParams.get('token'),
    selector: link.searchParams.get('selector'),
  });
  assert.equal(verified.status, 200, 'the new link verifies');
  assert.equal((await client.post('/api/user/login', { email, password: testPassword })).status, 200);

  const answers: number[] = [];
  for (let i = 0; i < 4; i++)
    answers.push((await client.post('/api/user/resendVerification', { email })).status);
  assert.deepEqual(
    answers,
    [200, 429, 429, 429],
    'three per client: the unknown address and the resend came first',
  );
});

test("members learn the team owner's name, whom a photographer without rights must ask", async () => {
  const team = await makeTeam(server);
  const photographer = await makeMember(server, team, 'Photographer');
  const info = await photographer.client.get<{ member_of: Array<{ owner?: string }> }>('/api/user/info');
  const owner = await server.running.ctx.db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('email', '=', team.owner.email)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    info.body.member_of.map((m) => m.owner),
    [`${owner.first_name} ${owner.last_name}`.trim()],
  );
  const tree = await photographer.client.get<{ folders: unknown[] }>(`/api/${team.teamUuid}/folders`);
  assert.deepEqual(tree.body.folders, [], 'no rights: the tree is empty and the drawer names the owner');
});
