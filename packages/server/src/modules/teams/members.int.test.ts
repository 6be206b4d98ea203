import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeMember, makeTeam, makeUser, uniqueEmail } from '../../../test/support/factories.ts';
import { linkIn } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ DEBUG_ADMIN: '1' });
});
after(() => server.stop());

type Member = {
  dbuserid: number;
  email: string;
  fullname: string;
  groups: Array<{ name: string; dbgroupid: number }>;
  email_verified: boolean;
  accreditation_number: string | null;
};

test('invite an unknown address: pending, mailed link, sign-up in invitation mode', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const email = uniqueEmail('invitee');
  const res = await team.owner.client.post(`${base}/user`, { email, sendInvitationIfNeeded: true });
  assert.deepEqual(res.body, { result: 'INVITATION_PENDING' });
  const users = await team.owner.client.get<{ members: Member[] }>(`${base}/users`);
  const pending = users.body.members.find((m) => m.email === email);
  assert.equal(pending?.email_verified, false);
  assert.equal(pending?.groups[0].name, 'Photographer');

  const mail = await server.mail.waitFor(email);
  const link = linkIn(mail);
  assert.equal(link.pathname, '/signup');
  assert.equal(link.searchParams.get('team'), team.teamUuid);
  assert.equal(link.searchParams.get('email'), email);
  const client = server.client();
  const signup = await client.post('/api/user/register', {
    email,
    firstName: 'Lena',
    lastName: 'Krause',
    password: 'secret1',
    invitationToken: link.searchParams.get('token'),
  });
  assert.deepEqual(signup.body, { result: 'OK' });
  assert.equal((await client.post('/api/user/login', { email, password: 'secret1' })).status, 200);
  const after = await team.owner.client.get<{ members: Member[] }>(`${base}/users`);
  const joined = after.body.members.find((m) => m.email === email);
  assert.deepEqual([joined?.email_verified, joined?.fullname], [true, 'Lena Krause']);

  assert.deepEqual((await team.owner.client.post(`${base}/user`, { email })).body, { result: 'ALREADY_OK' });
});

test('a known user joins after accepting; the owner is protected, groups and accreditation are edited', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const known = await makeUser(server);
  // Issue 10 item 13: an existing account is invited, never added silently.
  assert.deepEqual((await team.owner.client.post(`${base}/user`, { email: known.email })).body, {
    result: 'INVITATION_PENDING',
  });
  const mail = await server.mail.waitFor(known.email);
  assert.match(mail.subject, /invited/);
  const link = linkIn(mail);
  assert.equal(link.pathname, '/acceptInvitation');
  assert.deepEqual(
    (await server.client().post('/api/user/acceptInvitation', { token: link.searchParams.get('token') }))
      .body,
    { result: 'OK' },
  );

  const groups = await team.owner.client.get<{
    groups: Array<{ dbgroupid: number; name: string; localizedName: string }>;
  }>(`${base}/groups`);
  assert.deepEqual(
    groups.body.groups.map((g) => g.localizedName),
    ['Team Owner', 'Operator', 'Photographer'],
  );
  const id = (name: string) => groups.body.groups.find((g) => g.name === name)?.dbgroupid as number;

  assert.equal(
    (await team.owner.client.post(`${base}/user/${known.userId}/groups`, { groups: [id('Operator')] }))
      .status,
    200,
  );
  assert.equal(
    (await team.owner.client.post(`${base}/user/${known.userId}/groups`, { groups: [id('Owner')] })).status,
    400,
  );
  assert.equal(
    (
      await team.owner.client.post(`${base}/user/${team.owner.userId}/groups`, {
        groups: [id('Photographer')],
      })
    ).status,
    400,
  );
  assert.equal(
    (
      await team.owner.client.post(`${base}/user/${known.userId}/groups`, {
        groups: [id('Operator'), id('Photographer')],
      })
    ).status,
    400,
    'exactly one group',
  );
  assert.equal(
    (await team.owner.client.post(`${base}/teamuser/${known.userId}`, { accreditation_number: 'DFL-4711' }))
      .status,
    200,
  );
  assert.equal(
    (
      await team.owner.client.post(`${base}/teamuser/${known.userId}`, {
        accreditation_number: 'x'.repeat(65),
      })
    ).status,
    400,
  );

  const list = await team.owner.client.get<{ members: Member[] }>(`${base}/users`);
  const row = list.body.members.find((m) => m.email === known.email);
  assert.deepEqual([row?.groups[0].name, row?.accreditation_number], ['Operator', 'DFL-4711']);

  assert.equal(
    (await team.owner.client.del(`${base}/user`, { email: team.owner.email })).status,
    400,
    'never the owner',
  );
  assert.equal((await team.owner.client.del(`${base}/user`, { email: known.email })).status, 200);
  const gone = await team.owner.client.get<{ members: Member[] }>(`${base}/users`);
  assert.equal(
    gone.body.members.some((m) => m.email === known.email),
    false,
  );
});

test('photographers get 403 on user management; bad addresses are refused', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const p = await makeMember(server, team, 'Photographer');
  for (const [method, path] of [
    ['GET', '/users'],
    ['GET', '/groups'],
    ['POST', '/user'],
    ['DELETE', '/user'],
  ] as const) {
    const res = await p.client.request(method, `${base}${path}`, { email: uniqueEmail() });
    assert.deepEqual([res.status, res.body.error], [403, 'MissingPermission'], `${method} ${path}`);
  }
  for (const email of ['nobody', 'a@b', 'a@b.c', 'a@b.abcdefghijklm', `${'x'.repeat(300)}@a.de`]) {
    assert.equal(
      (await team.owner.client.post(`${base}/user`, { email, sendInvitationIfNeeded: true })).status,
      400,
      email,
    );
  }
});

test('debug accept-invite completes a pending invitation (by an admin of the inviting team)', async () => {
  const team = await makeTeam(server);
  const email = uniqueEmail('forced');
  await team.owner.client.post(`/api/${team.teamUuid}/user`, { email, sendInvitationIfNeeded: true });
  const res = await team.owner.client.post('/api/admin/user/acceptInvite', {
    email,
    firstName: 'F',
    lastName: 'A',
    password: 'secret1',
  });
  assert.deepEqual(res.body, { result: 'OK' });
  assert.equal((await server.client().post('/api/user/login', { email, password: 'secret1' })).status, 200);
});
