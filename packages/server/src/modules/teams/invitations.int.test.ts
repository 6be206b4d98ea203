import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  login,
  makeMember,
  makeTeam,
  makeUser,
  testPassword,
  uniqueEmail,
} from '../../../test/support/factories.ts';
import { linkIn } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 10 items 3, 4 and 13: nobody joins a team, or gets an invited account, without the
// invitation's token; the debug force-accept stays inside the inviting team.

let server: TestServer;
before(async () => {
  server = await startTestServer({ DEBUG_ADMIN: '1' });
});
after(() => server.stop());

type Members = { members: Array<{ email: string; email_verified: boolean; fullname: string }> };
const signup = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  firstName: 'Eve',
  lastName: 'Attacker',
  password: 'attacker1',
  companyName: 'Eve Ltd',
  ...extra,
});
const isMember = async (team: Awaited<ReturnType<typeof makeTeam>>, email: string) => {
  const list = await team.owner.client.get<Members>(`/api/${team.teamUuid}/users`);
  return list.body.members.some((m) => m.email === email && m.email_verified);
};
const inviteLink = async (email: string, path: string) => {
  const mail = await server.mail.waitFor(email, (m) => linkIn(m).pathname === path);
  return linkIn(mail);
};

describe('debug accept-invite (item 3)', () => {
  test('without a login it takes over nothing', async () => {
    const team = await makeTeam(server);
    const email = uniqueEmail('pending');
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email, sendInvitationIfNeeded: true });
    const res = await server.client().post('/api/admin/user/acceptInvite', {
      email,
      firstName: 'Eve',
      lastName: 'A',
      password: 'attacker1',
    });
    assert.deepEqual([res.status, res.body.error], [401, 'NotLoggedIn']);
    assert.equal(
      (await server.client().post('/api/user/login', { email, password: 'attacker1' })).status,
      401,
    );
  });

  test("another team's admin, or a photographer of the inviting team, cannot accept it", async () => {
    const team = await makeTeam(server);
    const other = await makeTeam(server);
    const photographer = await makeMember(server, team, 'Photographer');
    const email = uniqueEmail('pending');
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email, sendInvitationIfNeeded: true });
    for (const client of [other.owner.client, photographer.client]) {
      const res = await client.post('/api/admin/user/acceptInvite', {
        email,
        firstName: 'Eve',
        lastName: 'A',
        password: 'attacker1',
      });
      assert.equal(res.status, 404);
    }
    assert.equal(
      (await server.client().post('/api/user/login', { email, password: 'attacker1' })).status,
      401,
    );
  });

  test('never an unverified self-sign-up, never a verified account', async () => {
    const team = await makeTeam(server);
    const signedUp = uniqueEmail('selfsignup');
    assert.equal((await server.client().post('/api/user/register', signup(signedUp))).status, 200);
    await team.owner.client.post(`/api/${team.teamUuid}/user`, {
      email: signedUp,
      sendInvitationIfNeeded: true,
    });
    const verified = await makeUser(server);
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email: verified.email });
    for (const email of [signedUp, verified.email]) {
      const res = await team.owner.client.post('/api/admin/user/acceptInvite', {
        email,
        firstName: 'X',
        lastName: 'Y',
        password: 'overwritten1',
      });
      assert.equal(res.status, 404, email);
      assert.equal(
        (await server.client().post('/api/user/login', { email, password: 'overwritten1' })).status,
        401,
      );
    }
    assert.equal((await login(server, verified.email, testPassword)) !== undefined, true);
  });

  test('the public settings do not announce it; a logged-in user can ask', async () => {
    const settings = await server.client().get('/api/settings/public');
    assert.equal(settings.status, 200);
    assert.equal('debugAdmin' in settings.body, false);
    assert.equal((await server.client().get('/api/settings/debug')).status, 401);
    const team = await makeTeam(server);
    assert.deepEqual((await team.owner.client.get('/api/settings/debug')).body, { debugAdmin: true });
  });
});

describe('invitation hijack (item 4)', () => {
  test('a sign-up without the token cannot take an invited address; the invitee signs up with the link', async () => {
    const team = await makeTeam(server);
    const email = uniqueEmail('invitee');
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email, sendInvitationIfNeeded: true });
    const attack = await server.client().post('/api/user/register', signup(email));
    assert.deepEqual([attack.status, attack.body.error], [409, 'UserAlreadyExists']);
    assert.equal(await isMember(team, email), false);

    const link = await inviteLink(email, '/signup');
    const res = await server.client().post('/api/user/register', {
      email,
      firstName: 'Ina',
      lastName: 'Vitee',
      password: 'invitee1',
      invitationToken: link.searchParams.get('token'),
    });
    assert.deepEqual(res.body, { result: 'OK' });
    assert.equal(await isMember(team, email), true);
    assert.equal(
      (await server.client().post('/api/user/login', { email, password: 'attacker1' })).status,
      401,
    );
  });

  test("an earlier unverified sign-up's verify mail grants no membership; the invitation link takes the account over", async () => {
    const team = await makeTeam(server);
    const email = uniqueEmail('victim');
    assert.equal((await server.client().post('/api/user/register', signup(email))).status, 200);
    const verifyLink = linkIn(await server.mail.waitFor(email, (m) => linkIn(m).pathname === '/verify'));
    const invited = await team.owner.client.post(`/api/${team.teamUuid}/user`, {
      email,
      sendInvitationIfNeeded: true,
    });
    assert.deepEqual(invited.body, { result: 'INVITATION_PENDING' });
    assert.equal(await isMember(team, email), false, 'an unverified account is never added');

    // The invitee uses the invitation: the account becomes theirs, the attacker's password and verify link die.
    const link = await inviteLink(email, '/signup');
    const res = await server.client().post('/api/user/register', {
      email,
      firstName: 'Vic',
      lastName: 'Tim',
      password: 'victim12',
      invitationToken: link.searchParams.get('token'),
    });
    assert.deepEqual(res.body, { result: 'OK' });
    assert.equal(await isMember(team, email), true);
    assert.equal(
      (await server.client().post('/api/user/login', { email, password: 'attacker1' })).status,
      401,
    );
    const verify = await server.client().post('/api/user/verify', {
      token: verifyLink.searchParams.get('token'),
      selector: verifyLink.searchParams.get('selector'),
    });
    assert.equal(verify.status, 400);
    assert.equal(
      (await server.client().post('/api/user/login', { email, password: 'victim12' })).status,
      200,
    );
  });

  test('verifying an unverified sign-up before the invitation is used joins no team', async () => {
    const team = await makeTeam(server);
    const email = uniqueEmail('victim');
    await server.client().post('/api/user/register', signup(email));
    const verifyLink = linkIn(await server.mail.waitFor(email, (m) => linkIn(m).pathname === '/verify'));
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email, sendInvitationIfNeeded: true });
    await server.client().post('/api/user/verify', {
      token: verifyLink.searchParams.get('token'),
      selector: verifyLink.searchParams.get('selector'),
    });
    const attacker = await login(server, email, 'attacker1');
    assert.equal((await attacker.get(`/api/${team.teamUuid}/user/groups`)).status, 404);
    assert.equal(await isMember(team, email), false);
  });
});

describe('adding an existing account (item 13)', () => {
  test('it joins only after accepting the mailed invitation', async () => {
    const team = await makeTeam(server, 'Line\r\nBcc: x@evil.example\nTeam');
    const known = await makeUser(server);
    const res = await team.owner.client.post(`/api/${team.teamUuid}/user`, { email: known.email });
    assert.deepEqual(res.body, { result: 'INVITATION_PENDING' });
    const client = await login(server, known.email);
    assert.equal((await client.get(`/api/${team.teamUuid}/user/groups`)).status, 404, 'not a member yet');
    const users = await team.owner.client.get<Members>(`/api/${team.teamUuid}/users`);
    const row = users.body.members.find((m) => m.email === known.email);
    assert.deepEqual([row?.email_verified, row?.fullname], [false, ''], 'shown as pending, no name');

    const mail = await server.mail.waitFor(known.email);
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.match(mail.subject, /Line Bcc: x@evil\.example Team/);
    const link = linkIn(mail);
    assert.equal(link.pathname, '/acceptInvitation');
    const bad = await server.client().post('/api/user/acceptInvitation', { token: 'nope.nope' });
    assert.equal(bad.status, 400);
    const accepted = await server.client().post('/api/user/acceptInvitation', {
      token: link.searchParams.get('token'),
    });
    assert.deepEqual(accepted.body, { result: 'OK' });
    assert.equal((await client.get(`/api/${team.teamUuid}/user/groups`)).status, 200);
    const again = await server
      .client()
      .post('/api/user/acceptInvitation', { token: link.searchParams.get('token') });
    assert.equal(again.status, 400, 'a link works once');
  });

  test('a withdrawn invitation cannot be accepted', async () => {
    const team = await makeTeam(server);
    const known = await makeUser(server);
    await team.owner.client.post(`/api/${team.teamUuid}/user`, { email: known.email });
    const link = linkIn(await server.mail.waitFor(known.email));
    const again = await team.owner.client.post(`/api/${team.teamUuid}/user`, { email: known.email });
    assert.deepEqual(again.body, { result: 'ALREADY_OK' }, 'an open invitation is not sent twice');
    assert.equal(
      (await team.owner.client.del(`/api/${team.teamUuid}/user`, { email: known.email })).status,
      200,
    );
    const res = await server
      .client()
      .post('/api/user/acceptInvitation', { token: link.searchParams.get('token') });
    assert.equal(res.status, 400);
    const renewed = await team.owner.client.post(`/api/${team.teamUuid}/user`, { email: known.email });
    assert.deepEqual(renewed.body, { result: 'INVITATION_PENDING' });
  });

  test('invitations are limited per team', async () => {
    const team = await makeTeam(server);
    const answers: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await team.owner.client.post(`/api/${team.teamUuid}/user`, {
        email: uniqueEmail('many'),
        sendInvitationIfNeeded: true,
      });
      answers.push(res.status);
    }
    assert.equal(answers.filter((s) => s === 200).length, 30);
    assert.deepEqual(answers.slice(30), [429, 429]);
  });
});
