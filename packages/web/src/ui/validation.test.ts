import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isInviteEmail,
  validateEmail,
  validatePassword,
  validateRepeat,
  validateRequired,
} from './validation.ts';

describe('form rules (spec §5)', () => {
  it('requires values', () => {
    assert.equal(validateRequired('  '), 'required');
    assert.equal(validateRequired('Ada'), null);
  });

  it('checks e-mail addresses', () => {
    assert.equal(validateEmail(''), 'required');
    assert.equal(validateEmail('ada@'), 'invalidEmail');
    assert.equal(validateEmail('ada@example'), 'invalidEmail');
    assert.equal(validateEmail('ada@example.com'), null);
  });

  it('needs passwords of at least 5 characters that match', () => {
    assert.equal(validatePassword(''), 'required');
    assert.equal(validatePassword('1234'), 'passwordTooShort');
    assert.equal(validatePassword('12345'), null);
    assert.equal(validateRepeat('12345', ''), 'required');
    assert.equal(validateRepeat('12345', '12346'), 'passwordsNotEqual');
    assert.equal(validateRepeat('12345', '12345'), null);
  });
});

describe('invite dialog e-mail (spec §5)', () => {
  it('needs a top-level domain of 2 to 12 letters', () => {
    assert.equal(isInviteEmail(''), false);
    assert.equal(isInviteEmail('ines@example'), false);
    assert.equal(isInviteEmail('ines@example.c'), false);
    assert.equal(isInviteEmail('ines@example.de'), true);
    assert.equal(isInviteEmail(' ines@example.photography '), true);
    assert.equal(isInviteEmail('ines@example.abcdefghijklm'), false);
    assert.equal(isInviteEmail('ines example@example.com'), false);
  });
});
