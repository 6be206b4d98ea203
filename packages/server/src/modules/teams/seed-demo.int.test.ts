import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { serverProcess } from '../../../test/support/process.ts';
import { demoEmail } from './seed-demo.ts';

// Issue 25: the demo team was seeded by default everywhere and every start printed its password.

/** The server's start-up lines after `from` (the banner comes once the demo is seeded, after HTTP answers). */
async function banner(server: { output(): string }, from: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = server.output().slice(from);
    if (text.includes('PhotoRelay:  ')) {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the rest of the banner
      return server.output().slice(from);
    }
    if (Date.now() > deadline) throw new Error(`no start-up banner:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('the one-command demo seeds and prints the password once; later starts print where it is', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-demo-'));
  // As `npm start` on a fresh machine: neither SEED_DEMO nor NODE_ENV set.
  const server = await serverProcess({ dataDir, fromSource: true, env: { SEED_DEMO: '', NODE_ENV: '' } });
  try {
    await server.start();
    const first = await banner(server, 0);
    const passwordFile = path.join(dataDir, 'demo-login.txt');
    const password = fs.readFileSync(passwordFile, 'utf8').trim();
    assert.match(first, new RegExp(`Log in as: +${demoEmail}`));
    assert.ok(first.includes(password), 'the first start says how to log in');
    await server.login(demoEmail, password);

    await server.stop();
    const seen = server.output().length;
    await server.start();
    const later = await banner(server, seen);
    assert.match(later, new RegExp(`Log in as: +${demoEmail}`));
    assert.ok(!later.includes(password), `a later start printed the password:\n${later}`);
    assert.ok(later.includes(passwordFile), 'it says where the password is');
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a production start (NODE_ENV=production) seeds no demo team unless SEED_DEMO asks', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-demo-'));
  const server = await serverProcess({
    dataDir,
    fromSource: true,
    env: { SEED_DEMO: '', NODE_ENV: 'production' },
  });
  try {
    await server.start();
    const text = await banner(server, 0);
    assert.ok(!text.includes('Log in as'), text);
    assert.equal(fs.existsSync(path.join(dataDir, 'demo-login.txt')), false);
    const res = await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: demoEmail, password: 'whatever1' }),
    });
    assert.equal(res.status, 401, 'no demo account');
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
