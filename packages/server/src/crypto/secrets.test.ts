import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import { decryptSecret, encryptSecret } from './secrets.ts';

test('secrets round-trip and a tampered one is refused', () => {
  const key = crypto.randomBytes(32);
  const sealed = encryptSecret(key, 'päss wörd');
  assert.notEqual(sealed, encryptSecret(key, 'päss wörd'), 'random IV');
  assert.equal(decryptSecret(key, sealed), 'päss wörd');
  const raw = Buffer.from(sealed, 'base64');
  raw[raw.length - 1] ^= 1;
  assert.throws(() => decryptSecret(key, raw.toString('base64')));
  assert.throws(() => decryptSecret(crypto.randomBytes(32), sealed));
});
