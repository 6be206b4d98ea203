import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { makeTeam, makeUser, testPassword, uniqueEmail } from '../../../test/support/factories.ts';
import { linkIn } from '../../../test/support/mail.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { sessionCookie } from '../../http/session.ts';
import { issueToken } from './service.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const signupBody = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  firstName: 'Anna',
  lastName: 'Schmidt',
  password: 'secret1',
  companyName: 'Bildagentur Nord',
  timezone: 'Europe/Berlin',
  language: 'en',
  ...extra,
});

async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sign up, verify, log in', () => {
  test('the whole journey, with the team provisioned in the background', async () => {
    const email = uniqueEmail('signup');
    const client = server.client();
    const reg = await client.post('/api/user/register', signupBody(email.toUpperCase()));
    assert.deepEqual([reg.status, reg.body], [200, { result: 'OK' }]);

    const early = await client.post('/api/user/login', { email, password: 'secret1' });
    assert.deepEqual([early.status, early.body.error], [403, 'EmailNotVerified']);

    const mail = await server.mail.waitFor(email);
    assert.match(mail.subject, /verify/i);
    const link = linkIn(mail);
    assert.equal(link.pathname, '/verify');
    const params = { token: link.searchParams.get('token'), selector: link.searchParams.get('selector') };
    assert.deepEqual((await client.post('/api/user/verify', params)).body, { result: 'OK' });
    const reused = await client.post('/api/user/verify', params);
    assert.deepEqual([reused.status, reused.body.error], [400, 'InvalidToken']);

    const wrong = await client.post('/api/user/login', { email, password: 'secret2' });
    assert.deepEqual([wrong.status, wrong.body.error], [401, 'InvalidLogin']);
    const login = await client.post('/api/user/login', { email, password: 'secret1' });
    assert.deepEqual([login.status, login.body], [200, { logged_in: true }]);

    const info = await waitUntil('team ready', async () => {
      const res = await client.get<{
        member_of: Array<{ teamid: string; name: string; ready: boolean }>;
        currentTeam: string;
      }>('/api/user/info');
      return res.body.member_of[0]?.ready ? res.body : undefined;
    });
    assert.equal(info.member_of[0].name, 'Bildagentur Nord');
    assert.equal(info.currentTeam, info.member_of[0].teamid);

    const groups = await client.get<{
      groups: Array<{ name: string; localizedName: string; has_all_permissions: boolean }>;
    }>(`/api/${info.currentTeam}/user/groups`);
    assert.deepEqual(
      groups.body.groups.map((g) => [g.name, g.localizedName, g.has_all_permissions]),
      [['Owner', 'Team Owner', true]],
    );

    const db = server.running.ctx.db;
    const team = await db
      .selectFrom('teams')
      .select('id')
      .where('uuid', '=', info.currentTeam)
      .executeTakeFirstOrThrow();
    const roots = await db
      .selectFrom('folders')
      .select('type')
      .where('team_id', '=', team.id)
      .where('parent_id', 'is', null)
      .execute();
    assert.deepEqual(roots.map((r) => r.type).sort(), ['calendars', 'ftpservers', 'projects', 'settings']);
    const files = await db
      .selectFrom('config_files')
      .select(['name', 'content'])
      .where('team_id', '=', team.id)
      .orderBy('name')
      .execute();
    assert.deepEqual(
      files.map((f) => f.name),
      ['news.json', 'sport.json'],
    );
    const sport = JSON.parse(Buffer.from(files[1].content).toString('utf8'));
    assert.ok(
      sport.subCategories.find((s: { id: string; showTeams: boolean }) => s.id === 'football' && s.showTeams),
    );
    const calendars = await db
      .selectFrom('calendars')
      .select('refname')
      .where('team_id', '=', team.id)
      .execute();
    assert.deepEqual(calendars, [{ refname: 'default' }]);
    const user = await db
      .selectFrom('users')
      .select('registration_completed')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    assert.equal(user.registration_completed, true);
  });

  test('German sign-up gets a German mail', async () => {
    const email = uniqueEmail('de');
    await server.client().post('/api/user/register', signupBody(email, { language: 'de' }));
    const mail = await server.mail.waitFor(email);
    assert.match(mail.subject, /Bitte bestätigen/);
    assert.match(mail.text, /innerhalb von 48 Stunden/);
  });

  test('an address already in use answers UserAlreadyExists and changes nothing', async () => {
    const { email } = await makeUser(server);
    const res = await server.client().post('/api/user/register', signupBody(email));
    assert.deepEqual([res.status, res.body.error], [409, 'UserAlreadyExists']);
    const teams = await server.running.ctx.db
      .selectFrom('teams')
      .select('id')
      .where('name', '=', `dup-${email}`)
      .execute();
    assert.equal(teams.length, 0);
  });

  test('bad input is refused with ValidationError', async () => {
    const client = server.client();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['missing email', { ...signupBody(''), email: undefined }],
      ['invalid email', signupBody('not-an-email')],
      ['short password', signupBody(uniqueEmail(), { password: '1234' })],
      ['oversize name', signupBody(uniqueEmail(), { firstName: 'x'.repeat(5000) })],
      ['wrong type', signupBody(uniqueEmail(), { firstName: 42 })],
      ['no company', signupBody(uniqueEmail(), { companyName: '' })],
      ['blank first name', signupBody(uniqueEmail(), { firstName: '   ' })],
    ];
    for (const [label, body] of cases) {
      const res = await client.post('/api/user/register', body);
      assert.deepEqual([res.status, res.body.error], [400, 'ValidationError'], label);
    }
    const login = await client.post('/api/user/login', { email: ['x'], password: 1 });
    assert.equal(login.status, 400);
  });
});

describe('tokens', () => {
  test('wrong, expired and malformed verify tokens are refused', async () => {
    const { userId, email } = await makeUser(server);
    const db = server.running.ctx.db;
    const issued = await issueToken(db, { kind: 'verify', email, userId, teamId: null });
    const client = server.client();
    const wrong = await client.post('/api/user/verify', { selector: issued.selector, token: 'x'.repeat(43) });
    assert.deepEqual([wrong.status, wrong.body.error], [400, 'InvalidToken']);
    await db
      .updateTable('tokens')
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where('selector', '=', issued.selector)
      .execute();
    const expired = await client.post('/api/user/verify', issued);
    assert.deepEqual([expired.status, expired.body.error], [400, 'InvalidToken']);
    const missing = await client.post('/api/user/verify', { selector: issued.selector });
    assert.deepEqual([missing.status, missing.body.error], [400, 'ValidationError']);
    // A reset token is no verify token.
    const reset = await issueToken(db, { kind: 'reset', email, userId, teamId: null });
    assert.equal((await client.post('/api/user/verify', reset)).status, 400);
  });
});

describe('password recovery', () => {
  test('always OK, mails a link, logs in and ends the other sessions', async () => {
    const team = await makeTeam(server);
    const other = server.client();
    const unknown = await other.post('/api/user/resetPassword', { email: uniqueEmail('nobody') });
    assert.deepEqual([unknown.status, unknown.body], [200, { result: 'OK' }]);

    const res = await other.post('/api/user/resetPassword', { email: team.owner.email });
    assert.deepEqual(res.body, { result: 'OK' });
    const mail = await server.mail.waitFor(team.owner.email, (m) => /reset/i.test(m.subject));
    const link = linkIn(mail);
    assert.equal(link.pathname, '/resetPassword');
    const body = {
      token: link.searchParams.get('token'),
      selector: link.searchParams.get('selector'),
      password: 'brandnew',
    };

    const short = await other.put('/api/user/resetPassword', { ...body, password: '1234' });
    assert.equal(short.status, 400);
    const reset = await other.put('/api/user/resetPassword', body);
    assert.deepEqual([reset.status, reset.body], [200, { logged_in: true }]);
    assert.equal((await other.get('/api/user/info')).body.logged_in, true);
    // The owner's old session ended with the reset.
    assert.equal((await team.owner.client.get('/api/user/info')).body.logged_in, false);
    assert.equal((await other.put('/api/user/resetPassword', body)).status, 400, 'single use');

    const oldLogin = await server
      .client()
      .post('/api/user/login', { email: team.owner.email, password: testPassword });
    assert.equal(oldLogin.status, 401);
    const newLogin = await server
      .client()
      .post('/api/user/login', { email: team.owner.email, password: 'brandnew' });
    assert.equal(newLogin.status, 200);
  });
});

describe('sessions and profile', () => {
  test('rememberme sets a 30-day cookie, otherwise a browser-session cookie', async () => {
    const { email } = await makeUser(server);
    const plain = await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email, password: testPassword }),
    });
    const plainCookie = plain.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`)) ?? '';
    assert.match(plainCookie, /HttpOnly/i);
    assert.match(plainCookie, /SameSite=Lax/i);
    assert.doesNotMatch(plainCookie, /Max-Age/i);
    const remembered = await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email, password: testPassword, rememberme: true }),
    });
    const rememberedCookie =
      remembered.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`)) ?? '';
    assert.match(rememberedCookie, /Max-Age=2592000/);
  });

  test('profile edit, team switch and logout', async () => {
    const a = await makeTeam(server, 'A');
    const b = await makeTeam(server, 'B');
    const client = a.owner.client;
    assert.deepEqual((await client.put('/api/user/info', { firstName: 'Jörg', lastName: 'Müller' })).body, {
      result: 'OK',
    });
    assert.equal((await client.put('/api/user/info', { firstName: '', lastName: 'x' })).status, 400);
    const info = await client.get<{ firstName: string; lastName: string; currentTeam: string }>(
      '/api/user/info',
    );
    assert.deepEqual(
      [info.body.firstName, info.body.lastName, info.body.currentTeam],
      ['Jörg', 'Müller', a.teamUuid],
    );

    // Not a member of B: switching there is refused.
    const refused = await client.put('/api/user/currentteam', { teamid: b.teamUuid });
    assert.deepEqual([refused.status, refused.body.error], [404, 'NotFound']);
    const db = server.running.ctx.db;
    const photographerGroup = await db
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', b.teamId)
      .where('name', '=', 'Photographer')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('team_members')
      .values({
        team_id: b.teamId,
        user_id: a.owner.userId,
        group_id: photographerGroup.id,
        accreditation_number: null,
      })
      .execute();
    assert.equal((await client.put('/api/user/currentteam', { teamid: b.teamUuid })).status, 200);
    const switched = await client.get<{ currentTeam: string; member_of: unknown[] }>('/api/user/info');
    assert.equal(switched.body.currentTeam, b.teamUuid);
    assert.equal(switched.body.member_of.length, 2);

    assert.deepEqual((await client.post('/api/user/logout')).body, { result: 'OK' });
    assert.deepEqual((await client.get('/api/user/info')).body, { logged_in: false });
    assert.equal((await client.get(`/api/${a.teamUuid}/user/groups`)).status, 401);
  });
});

describe('request guards', () => {
  test('state-changing calls need our Origin and a JSON body', async () => {
    const client = server.client();
    const body = { email: uniqueEmail(), password: 'whatever' };
    const noOrigin = await client.request('POST', '/api/user/login', body, { origin: '' });
    assert.deepEqual([noOrigin.status, noOrigin.body.error], [403, 'BadOrigin']);
    const evil = await client.request('POST', '/api/user/login', body, { origin: 'https://evil.example' });
    assert.deepEqual([evil.status, evil.body.error], [403, 'BadOrigin']);
    const form = await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a&password=b',
    });
    assert.equal(form.status, 415);
    const broken = await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/json' },
      body: '{"email":',
    });
    assert.equal(broken.status, 400);
  });

  test("another team's uuid, an unknown uuid and garbage all answer 404", async () => {
    const a = await makeTeam(server);
    const b = await makeTeam(server);
    for (const uuid of [b.teamUuid, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'or'1"]) {
      const res = await a.owner.client.get(`/api/${encodeURIComponent(uuid)}/user/groups`);
      assert.deepEqual([res.status, res.body.error], [404, 'NotFound'], uuid);
    }
    assert.equal((await a.owner.client.get(`/api/${a.teamUuid}/user/groups`)).status, 200);
  });

  test('debug accept-invite is off unless DEBUG_ADMIN=1', async () => {
    const res = await server.client().post('/api/admin/user/acceptInvite', {
      email: uniqueEmail(),
      firstName: 'a',
      lastName: 'b',
      password: 'secret1',
    });
    assert.equal(res.status, 404);
  });
});

describe('invitation sign-up', () => {
  test('a pending invitation becomes a verified member without a verify mail', async () => {
    const team = await makeTeam(server);
    const db = server.running.ctx.db;
    const email = uniqueEmail('invited');
    // What inviting does: a placeholder account in the Photographer group and a mailed token.
    const userId = (
      await db
        .insertInto('users')
        .values({ email, password_hash: '', first_name: '', last_name: '', current_team_id: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const group = await db
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', team.teamId)
      .where('name', '=', 'Photographer')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('team_members')
      .values({ team_id: team.teamId, user_id: userId, group_id: group.id, accreditation_number: null })
      .execute();
    const invite = await issueToken(db, { kind: 'invite', email, userId, teamId: team.teamId });
    const invitationToken = `${invite.selector}.${invite.token}`;

    const client = server.client();
    const res = await client.post(
      '/api/user/register',
      signupBody(email, { companyName: undefined, invitationToken }),
    );
    assert.deepEqual([res.status, res.body], [200, { result: 'OK' }]);
    // Issue 27 item 3: the invitee is signed in by the sign-up itself, in the invited team.
    const signedIn = await client.get<{ logged_in: boolean; currentTeam: string }>('/api/user/info');
    assert.deepEqual([signedIn.body.logged_in, signedIn.body.currentTeam], [true, team.teamUuid]);
    assert.equal(
      (
        await client.post(
          '/api/user/register',
          signupBody(email, { companyName: undefined, invitationToken }),
        )
      ).status,
      400,
    );
    const login = await client.post('/api/user/login', { email, password: 'secret1' });
    assert.equal(login.status, 200);
    const info = await client.get<{ currentTeam: string; firstName: string }>('/api/user/info');
    assert.deepEqual([info.body.currentTeam, info.body.firstName], [team.teamUuid, 'Anna']);
    const groups = await client.get<{ groups: Array<{ name: string }> }>(`/api/${team.teamUuid}/user/groups`);
    assert.deepEqual(
      groups.body.groups.map((g) => g.name),
      ['Photographer'],
    );
  });
});
