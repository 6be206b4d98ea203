import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAllowedHost, isPrivateAddress, OutboundAddressError } from './outbound-guard.ts';

test('private, loopback and special addresses are recognised', () => {
  for (const ip of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::192.168.0.1',
    // Issue 25: IPv4-translated and local-use NAT64.
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::8.8.8.8',
    '2002:c0a8:0101::1',
    'not-an-ip',
  ]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of [
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test('assertAllowedHost refuses loopback unless private networks are allowed', async () => {
  await assert.rejects(assertAllowedHost('127.0.0.1', { allowPrivateNetworks: false }), OutboundAddressError);
  await assert.rejects(
    assertAllowedHost('localhost', { allowPrivateNetworks: false }),
    /local or private network/,
  );
  await assert.rejects(assertAllowedHost('[::1]', { allowPrivateNetworks: false }), OutboundAddressError);
  assert.equal(await assertAllowedHost('127.0.0.1', { allowPrivateNetworks: true }), '127.0.0.1');
  assert.equal(await assertAllowedHost('8.8.8.8', { allowPrivateNetworks: false }), '8.8.8.8');
  await assert.rejects(assertAllowedHost('', { allowPrivateNetworks: true }), /empty/);
  await assert.rejects(
    assertAllowedHost('no-such-host.invalid', { allowPrivateNetworks: true }),
    /not found/,
  );
});
