import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { makeTeam, rootFolder } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { teamRouteTable } from './access.ts';

// Issue 10 item 8: NUL bytes and lone surrogates answered 500 (and logged SQL) on 27 routes;
// non-canonical ids were read as numbers or crashed; Fastify's own refusals had another shape.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const nul = 'a\u0000b';
const lone = 'a\uD800b';

test('NUL bytes and lone surrogates in a body answer 400 ValidationError, logged in or not', async () => {
  const anonymous = server.client();
  for (const bad of [nul, lone, '\uDC00']) {
    for (const [path, body] of [
      ['/api/user/login', { email: `x${bad}@example.com`, password: 'whatever1' }],
      ['/api/user/login', { email: 'x@example.com', password: bad }],
      ['/api/user/register', { email: `x${bad}@example.com`, password: 'whatever1', firstName: bad }],
      ['/api/user/resetPassword', { email: `x${bad}@example.com` }],
    ] as const) {
      const res = await anonymous.post(path, body);
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, 'ValidationError');
    }
  }
  // A well-formed pair (an emoji) is text like any other.
  const emoji = await anonymous.post('/api/user/login', { email: 'x😀@example.com', password: 'whatever1' });
  assert.notEqual(emoji.status, 500);
});

test('every team route refuses NUL and lone surrogates in its body, path and query, and changes nothing', async () => {
  const team = await makeTeam(server, 'Nul');
  const c = team.owner.client;
  const root = await rootFolder(server, team, 'projects');
  const before = await c.get<{ folders: unknown }>(`/api/${team.teamUuid}/folders`);

  const created = await c.post(`/api/${team.teamUuid}/folder`, { name: nul, parentFolderId: root.id });
  assert.deepEqual([created.status, created.body.error], [400, 'ValidationError']);
  const project = await c.post(`/api/${team.teamUuid}/project`, { name: lone, parentFolderId: root.id });
  assert.deepEqual([project.status, project.body.error], [400, 'ValidationError']);

  for (const route of teamRouteTable) {
    const path = route.url.replace(/:(\w+)/g, (_m, name: string) =>
      name === 'teamUuid' ? team.teamUuid : '1',
    );
    const label = `${route.method} ${route.url}`;
    if (route.method !== 'GET') {
      // Every string of the body is suspect, wherever the schema would put it.
      const body = { name: nul, [`k${nul}`]: 'v', nested: [{ text: lone }] };
      const res = await c.request(route.method, path, body);
      assert.deepEqual([res.status, res.body.error], [400, 'ValidationError'], `${label} body`);
    }
    const inQuery = await c.request(route.method, `${path}?q=%00`, route.method === 'GET' ? undefined : {});
    assert.deepEqual([inQuery.status, inQuery.body.error], [400, 'ValidationError'], `${label} query`);
    const withParam = route.url.replace(/:(\w+)/g, (_m, name: string) =>
      name === 'teamUuid' ? team.teamUuid : 'x%00',
    );
    if (withParam !== path) {
      const res = await c.request(route.method, withParam, route.method === 'GET' ? undefined : {});
      assert.ok(res.status === 400 || res.status === 404, `${label} path: ${res.status}`);
    }
  }
  const inTeam = await c.get(`/api/x%00/folders`);
  assert.deepEqual([inTeam.status, inTeam.body.error], [400, 'ValidationError']);
  const inCookie = await c.request('GET', '/api/user/info', undefined, { cookie: 'pr_session=a%00b' });
  assert.deepEqual([inCookie.status, inCookie.body.error], [400, 'ValidationError']);

  const afterwards = await c.get<{ folders: unknown }>(`/api/${team.teamUuid}/folders`);
  assert.deepEqual(afterwards.body, before.body, 'nothing was created');
});

test('only canonical decimal ids: 0x2, 2e0, +2, %202, 02 and 9999999999 answer 400 or 404, never 500', async () => {
  const team = await makeTeam(server, 'Ids');
  const c = team.owner.client;
  const root = await rootFolder(server, team, 'projects');
  const made = await c.post<{ projectId: number }>(`/api/${team.teamUuid}/project`, {
    name: 'ids',
    parentFolderId: root.id,
  });
  const id = made.body.projectId;
  assert.equal((await c.get(`/api/${team.teamUuid}/project/${id}`)).status, 200);
  const odd = [
    `0x${id.toString(16)}`,
    `${id}e0`,
    `+${id}`,
    `%20${id}`,
    `0${id}`,
    `${id}.0`,
    '9999999999',
    '0',
  ];
  for (const spelling of odd) {
    for (const path of [
      `/api/${team.teamUuid}/project/${spelling}`,
      `/api/${team.teamUuid}/command/state/${spelling}/x`,
      `/api/${team.teamUuid}/project/${id}/xmpvalues`.replace(String(id), spelling),
      `/api/${team.teamUuid}/command/downloadresultfile/${spelling}/x`,
    ]) {
      const res = await c.get(path);
      assert.ok(
        res.status === 400 || res.status === 404,
        `${path}: ${res.status} ${JSON.stringify(res.body)}`,
      );
      assert.ok(typeof res.body.error === 'string', path);
    }
  }
  const paged = await c.get(`/api/${team.teamUuid}/jobs?pageSize=0x10&pageIndex=0`);
  assert.ok(paged.status === 400 || paged.status === 404, `jobs paging: ${paged.status}`);
});

function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

test("Fastify's and Node's own refusals (414, 431, 400) use the catalogue's {error, message}", async () => {
  const c = server.client();
  const longParam = await c.get(`/api/${'a'.repeat(300)}/folders`);
  assert.equal(longParam.status, 414);
  assert.deepEqual(Object.keys(longParam.body).sort(), ['error', 'message']);
  assert.equal(longParam.body.error, 'ValidationError');
  assert.equal(longParam.headers.get('x-content-type-options'), 'nosniff');

  const badUrl = await c.get('/api/%E0%A4%A/folders');
  assert.deepEqual([badUrl.status, badUrl.body.error], [400, 'ValidationError']);
  assert.deepEqual(Object.keys(badUrl.body).sort(), ['error', 'message']);

  const port = Number(new URL(server.url).port);
  const big = await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.match(big, /^HTTP\/1\.1 431 /);
  assert.deepEqual(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4)), {
    error: 'ValidationError',
    message: 'The request headers are too large',
  });
  const garbage = await raw(port, 'GARBAGE\r\n\r\n');
  assert.match(garbage, /^HTTP\/1\.1 400 /);
  assert.equal(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).error, 'ValidationError');

  // The server still answers after all of it.
  assert.equal((await c.get('/api/health')).status, 200);
});
