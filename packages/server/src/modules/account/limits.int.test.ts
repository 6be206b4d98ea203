import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeUser, uniqueEmail } from '../../../test/support/factories.ts';
import { startTestServer } from '../../../test/support/server.ts';

const signup = (email: string) => ({
  email,
  firstName: 'Max',
  lastName: 'Muster',
  password: 'secret1',
  companyName: 'Foto Süd',
  timezone: 'Europe/Berlin',
});

test('repeated wrong passwords reach the rate limit (TooManyRequests)', async () => {
  const server = await startTestServer({ AUTH_RATE_LIMIT: '3' });
  try {
    const { email } = await makeUser(server);
    const client = server.client();
    const answers: number[] = [];
    for (let i = 0; i < 5; i++)
      answers.push((await client.post('/api/user/login', { email, password: 'wrong!' })).status);
    assert.deepEqual(answers, [401, 401, 401, 429, 429]);
    const limited = await client.post('/api/user/login', { email, password: 'wrong!' });
    assert.equal(limited.body.error, 'TooManyRequests');
    // Another account from the same address is not locked out by it.
    const other = await makeUser(server);
    assert.equal(
      (await client.post('/api/user/login', { email: other.email, password: 'wrong!' })).status,
      401,
    );
  } finally {
    await server.stop();
  }
});

test('a mail that cannot be sent answers SendMailFailed and takes the sign-up back', async () => {
  const server = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:9' });
  try {
    const email = uniqueEmail('nomail');
    const res = await server.client().post('/api/user/register', signup(email));
    assert.deepEqual([res.status, res.body.error], [502, 'SendMailFailed']);
    const user = await server.running.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    assert.equal(user, undefined);
  } finally {
    await server.stop();
  }
});

test('without SMTP_URL mails land as .eml files in DATA_DIR/outbox', async () => {
  const server = await startTestServer({ SMTP_URL: '' });
  try {
    const email = uniqueEmail('outbox');
    assert.equal((await server.client().post('/api/user/register', signup(email))).status, 200);
    const outbox = path.join(server.running.ctx.config.DATA_DIR, 'outbox');
    const files = fs.readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    assert.equal(files.length, 1);
    const eml = fs.readFileSync(path.join(outbox, files[0]), 'utf8');
    assert.match(eml, new RegExp(`To: ${email}`, 'i'));
    assert.match(eml.replace(/=\r?\n/g, '').replace(/=3D/g, '='), /\/verify\?token=[\w-]+&selector=[\w-]+/);
  } finally {
    await server.stop();
  }
});

test('health and API docs answer', async () => {
  const server = await startTestServer();
  try {
    assert.deepEqual((await server.client().get('/api/health')).body, {
      status: 'ok',
      database: 'ok',
      disk: 'ok',
    });
    const docs = await server.client().get<{ paths: Record<string, unknown> }>('/api/docs/json');
    assert.ok(docs.body.paths['/api/user/login']);
    assert.ok(docs.body.paths['/api/{teamUuid}/user/groups']);
    // Routes declared in the contract document their body, their error answers and the session.
    type Operation = {
      requestBody?: unknown;
      responses: Record<string, unknown>;
      security?: Array<Record<string, unknown>>;
    };
    const paths = docs.body.paths as Record<string, Record<string, Operation>>;
    const put = paths['/api/{teamUuid}/ftpserver/{id}']?.put;
    assert.ok(put?.requestBody, 'PUT ftpserver documents its body');
    // 409: a name another server in the folder has.
    assert.deepEqual(Object.keys(put.responses).sort(), ['200', '400', '401', '403', '404', '409']);
    assert.deepEqual(put.security, [{ session: [] }]);
    const schemes = (docs.body as { components?: { securitySchemes?: Record<string, unknown> } }).components;
    assert.deepEqual(schemes?.securitySchemes?.session, { type: 'apiKey', in: 'cookie', name: 'pr_session' });
  } finally {
    await server.stop();
  }
});
