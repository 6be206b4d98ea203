import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 10 item 11: answers carried no security headers (the app could be framed, sniffed,
// cached with secrets) and the web app's source maps were public.
let server: TestServer;
let secure: TestServer;
before(async () => {
  server = await startTestServer();
  secure = await startTestServer({ PUBLIC_URL: 'https://photorelay.example.com' });
});
after(async () => {
  await server.stop();
  await secure.stop();
});

function assertHardened(headers: Headers, label: string) {
  const csp = headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/, `${label}: csp`);
  assert.match(csp, /script-src 'self'(;|$)/, `${label}: only our own scripts`);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe/, `${label}: no inline or eval scripts`);
  assert.match(csp, /object-src 'none'/, label);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', label);
  assert.equal(headers.get('referrer-policy'), 'same-origin', label);
  assert.equal(headers.get('x-frame-options'), 'DENY', label);
}

test('every answer carries the security headers; API answers are never cached', async () => {
  const team = await makeTeam(server, 'Headers');
  const c = team.owner.client;
  const answers = {
    'API ok': await c.get(`/api/${team.teamUuid}/folders`),
    'API 404': await c.get('/api/nothing-here'),
    'API 401': await server.client().get(`/api/${team.teamUuid}/folders`),
    'API 403 origin': await server
      .client()
      .request('POST', '/api/user/login', {}, { origin: 'https://evil.example' }),
    'API 400': await c.get(`/api/${team.teamUuid}/project/0x1`),
    'web app': await server.client().get('/some/page'),
    health: await server.client().get('/api/health'),
  };
  for (const [label, res] of Object.entries(answers)) assertHardened(res.headers, label);
  for (const label of ['API ok', 'API 404', 'API 401', 'API 403 origin', 'API 400', 'health'] as const)
    assert.match(answers[label].headers.get('cache-control') ?? '', /no-store/, `${label}: cache-control`);
  // The login answer sets the session: no-store as well.
  const login = await server
    .client()
    .post('/api/user/login', { email: team.owner.email, password: 'wrong-one' });
  assert.match(login.headers.get('cache-control') ?? '', /no-store/);
  // Plain http (a laptop): no HSTS, which would lock the browser out of http://localhost.
  assert.equal(answers['API ok'].headers.get('strict-transport-security'), null);
});

test('HSTS when PUBLIC_URL is https', async () => {
  const res = await secure.client().get('/api/health');
  assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d{7,}/);
  assertHardened(res.headers, 'https');
});

test('no source maps are served', async () => {
  for (const path of ['/assets/index.js.map', '/assets/mui-abc123.js.map', '/main.tsx.map']) {
    const res = await server.client().get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.body.error, 'NotFound', path);
  }
});
