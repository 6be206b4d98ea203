import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { getUserInfo, login } from '@photorelay/contract/account';
import { deleteFtpServer, getFtpServer, listFtpServers } from '@photorelay/contract/ftpservers';
import { downloadResultFile } from '@photorelay/contract/metadata';
import { fillPath, forMembers, teamRoute } from '@photorelay/contract/route';
import { z } from 'zod';
import { callRoute, routeUrl } from './call.ts';
import { ApiError } from './client.ts';

const team = '3f0c7c4e-2b1a-4c55-9a43-0d5b8f1e2a01';
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

function answer(json: unknown, status = 200) {
  const calls: Array<{ url: string; method: string; body?: string }> = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET', body: init?.body as string | undefined });
    return new Response(JSON.stringify(json), { status });
  }) as typeof fetch;
  return calls;
}

test('fillPath puts each parameter in its place, encoded, and refuses a missing one', () => {
  assert.equal(fillPath('/ftpserver/:id', { id: 7 }), 'ftpserver/7');
  assert.equal(fillPath('/a/:x/b/:y', { x: 'a b', y: '../c' }), 'a/a%20b/b/..%2Fc');
  assert.throws(() => fillPath('/ftpserver/:id', {}), /missing path parameter id/);
});

test('callRoute builds the URL from the contract route and parses the answer with its schema', async () => {
  const calls = answer({ ftpservers: [] });
  assert.deepEqual(await callRoute(listFtpServers, { teamUuid: team }), { ftpservers: [] });
  assert.deepEqual(calls[0], { url: `/api/${team}/ftpservers`, method: 'GET', body: undefined });

  const deleted = answer({ result: 'OK' });
  await callRoute(deleteFtpServer, { teamUuid: team, params: { id: 12 } });
  assert.equal(deleted[0]?.url, `/api/${team}/ftpserver/12`);
  assert.equal(deleted[0]?.method, 'DELETE');
  assert.equal(deleted[0]?.body, '{}');
});

test('an answer that does not match the route schema is an InvalidResponse', async () => {
  answer({ ftpserver: { id: 'not a number' } });
  await assert.rejects(
    callRoute(getFtpServer, { teamUuid: team, params: { id: 1 } }),
    (error) => error instanceof ApiError && error.code === 'InvalidResponse',
  );
});

test('query values are sent as a query string', async () => {
  const route = teamRoute({
    method: 'GET',
    path: '/things',
    query: z.object({ page: z.number(), q: z.string().optional() }),
    response: z.object({ n: z.number() }),
    access: forMembers,
  });
  const calls = answer({ n: 1 });
  await callRoute(route, { teamUuid: team, query: { page: 2, q: 'a&b' } });
  assert.equal(calls[0]?.url, `/api/${team}/things?page=2&q=a%26b`);
});

test('a route outside a team is called under /api without a team', async () => {
  const calls = answer({ logged_in: false });
  assert.deepEqual(await callRoute(getUserInfo, {}), { logged_in: false });
  assert.deepEqual(calls[0], { url: '/api/user/info', method: 'GET', body: undefined });

  const posted = answer({ logged_in: true });
  await callRoute(login, { body: { email: 'a@b.de', password: 'secret1' } });
  assert.equal(posted[0]?.url, '/api/user/login');
  assert.equal(posted[0]?.body, '{"email":"a@b.de","password":"secret1"}');
});

test('routeUrl gives the absolute URL of a download, its parameters encoded', () => {
  assert.equal(
    routeUrl(downloadResultFile, { teamUuid: team, params: { a: 12, b: 'tok/en' } }),
    `/api/${team}/command/downloadresultfile/12/tok%2Fen`,
  );
});
