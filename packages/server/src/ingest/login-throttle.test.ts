import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginBlockedError, LoginThrottle } from './login-throttle.ts';

test('failures slow an address down, then block it for a while; success clears it', async () => {
  let now = 1_000_000;
  const t = new LoginThrottle({
    slowAfter: 2,
    delayStepMs: 20,
    maxDelayMs: 30,
    blockAfter: 4,
    blockMs: 60_000,
    now: () => now,
  });
  const timed = async (address: string) => {
    const started = Date.now();
    await t.gate(address);
    return Date.now() - started;
  };
  t.record('1.2.3.4', false);
  assert.ok((await timed('1.2.3.4')) < 15);
  t.record('1.2.3.4', false);
  assert.ok((await timed('1.2.3.4')) >= 15);
  t.record('1.2.3.4', false);
  t.record('1.2.3.4', false);
  await assert.rejects(t.gate('1.2.3.4'), LoginBlockedError);
  assert.ok((await timed('5.6.7.8')) < 15, 'other addresses are not affected');
  now += 60_001;
  assert.equal(t.isBlocked('1.2.3.4'), false);
  await t.gate('1.2.3.4');
  t.record('1.2.3.4', true);
  assert.ok((await timed('1.2.3.4')) < 15);
});

test('old failures are forgotten and the table stays bounded', async () => {
  let now = 0;
  const t = new LoginThrottle({
    slowAfter: 1,
    delayStepMs: 50,
    windowMs: 1000,
    maxAddresses: 3,
    now: () => now,
  });
  t.record('a', false);
  now = 2000;
  const started = Date.now();
  await t.gate('a');
  assert.ok(Date.now() - started < 40);
  for (const address of ['b', 'c', 'd', 'e']) t.record(address, false);
  assert.equal((t as unknown as { state: Map<string, unknown> }).state.size, 3);
});
