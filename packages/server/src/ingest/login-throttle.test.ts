import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginBlockedError, LoginThrottle } from './login-throttle.ts';

const options = { slowAfter: 2, delayStepMs: 20, maxDelayMs: 30, blockAfter: 4, blockMs: 60_000 };

async function fail(t: LoginThrottle, address: string, name: string) {
  const attempt = await t.begin(address, name);
  await attempt.settle('failed');
}

test('failures slow a pair down, then block it for a while; a success clears only its own pair', async () => {
  let now = 1_000_000;
  const t = new LoginThrottle({ ...options, now: () => now });
  const timed = async (name: string) => {
    const started = Date.now();
    const attempt = await t.begin('1.2.3.4', name);
    return { ms: Date.now() - started, attempt };
  };
  await fail(t, '1.2.3.4', 'cam');
  await fail(t, '1.2.3.4', 'cam');
  const slowed = await timed('cam'); // 2 failures on record -> waits 20 ms
  assert.ok(slowed.ms >= 15, `waited ${slowed.ms} ms`);
  await slowed.attempt.settle('failed');
  // Another account's success at the same address clears nothing of this pair.
  await (await t.begin('1.2.3.4', 'colleague')).settle('ok');
  await fail(t, '1.2.3.4', 'cam');
  await assert.rejects(t.begin('1.2.3.4', 'CAM '), LoginBlockedError, 'names count without case or spaces');
  // The colleague at the same address and the same name elsewhere are not blocked.
  await (await t.begin('1.2.3.4', 'colleague')).settle('ok');
  await (await t.begin('5.6.7.8', 'cam')).settle('ok');
  now += 60_001;
  const again = await t.begin('1.2.3.4', 'cam'); // a served block starts over slowed
  await again.settle('ok');
  assert.equal((await timed('cam')).ms < 15, true, 'a success clears the pair');
});

test('concurrent attempts are counted before any is checked', async () => {
  const t = new LoginThrottle({ ...options, delayStepMs: 1, maxDelayMs: 1 });
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, async () => {
      const attempt = await t.begin('9.9.9.9', 'cam');
      await attempt.settle('failed');
    }),
  );
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 4);
});

test('a crew logging in to one account at the same instant takes turns instead of being blocked', async () => {
  // Issue 29 item 3: 16 cameras behind one NAT address; every attempt was counted as a failure
  // until checked, so the 5th and later (blockAfter 4 here) were refused with the right password.
  const t = new LoginThrottle(options);
  const results = await Promise.allSettled(
    Array.from({ length: 16 }, async () => {
      const attempt = await t.begin('10.0.0.1', 'crew');
      await new Promise((resolve) => setTimeout(resolve, 5)); // the password check
      await attempt.settle('ok');
    }),
  );
  assert.deepEqual(
    results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    [],
  );
});

test('an address is blocked as a whole only after failures on many names', async () => {
  const t = new LoginThrottle({ ...options, addressBlockAfterNames: 3 });
  await fail(t, '1.1.1.1', 'a');
  await fail(t, '1.1.1.1', 'a');
  await fail(t, '1.1.1.1', 'b');
  await (await t.begin('1.1.1.1', 'other')).settle('ok');
  await fail(t, '1.1.1.1', 'c');
  await assert.rejects(t.begin('1.1.1.1', 'other'), (err: LoginBlockedError) => err.scope === 'address');
  await (await t.begin('2.2.2.2', 'other')).settle('ok');
});

test('names no account has block an address only in far greater numbers', async () => {
  const t = new LoginThrottle({ ...options, addressBlockAfterNames: 3, addressBlockAfterUnknownNames: 6 });
  for (let i = 0; i < 5; i++) await (await t.begin('4.4.4.4', `made-up-${i}`)).settle('unknown');
  await (await t.begin('4.4.4.4', 'camera')).settle('ok');
  await (await t.begin('4.4.4.4', 'made-up-5')).settle('unknown');
  await assert.rejects(t.begin('4.4.4.4', 'camera'), (err: LoginBlockedError) => err.scope === 'address');
});

test('a backend error takes the attempt back', async () => {
  const t = new LoginThrottle(options);
  for (let i = 0; i < 10; i++) await (await t.begin('3.3.3.3', 'cam')).settle('error');
  await (await t.begin('3.3.3.3', 'cam')).settle('ok');
});
