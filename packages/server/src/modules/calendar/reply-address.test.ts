import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invitationOfReplyAddress, replyAddress } from './reply-address.ts';

const config = { INBOUND_MAIL_DOMAIN: 'Replies.Example.com', secretKey: Buffer.alloc(32, 7) };

test('a reply address names its invitation and nothing else answers for it', () => {
  const address = replyAddress(config, 42);
  assert.match(address ?? '', /^reply\+42-[0-9a-f]{32}@replies\.example\.com$/);
  assert.equal(invitationOfReplyAddress(config, address ?? ''), 42);
  // Mail systems may change the case of the whole address.
  assert.equal(invitationOfReplyAddress(config, (address ?? '').toUpperCase()), 42);
  const [local, domain] = (address ?? '').split('@');
  const mac = local.split('-')[1];
  for (const forged of [
    `reply+43-${mac}@${domain}`, // another invitation with this MAC
    `reply+42-${mac.slice(0, -1)}${mac.endsWith('0') ? '1' : '0'}@${domain}`,
    `reply+42-${mac}@other.example.com`,
    `reply+42-${mac.slice(0, 16)}@${domain}`,
    `reply+042-${mac}@${domain}`,
    `someone@${domain}`,
  ])
    assert.equal(invitationOfReplyAddress(config, forged), null, forged);
  // Another key (another installation) makes another address.
  assert.equal(invitationOfReplyAddress({ ...config, secretKey: Buffer.alloc(32, 8) }, address ?? ''), null);
});

test('without INBOUND_MAIL_DOMAIN there is no reply address and none is taken', () => {
  const off = { INBOUND_MAIL_DOMAIN: undefined, secretKey: config.secretKey };
  assert.equal(replyAddress(off, 42), null);
  assert.equal(invitationOfReplyAddress(off, replyAddress(config, 42) ?? ''), null);
});
