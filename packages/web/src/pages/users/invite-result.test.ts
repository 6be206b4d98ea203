import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import en from '../../i18n/en.json' with { type: 'json' };
import { inviteResultMessage } from './invite-result.ts';

const text = (result: unknown) => {
  const [group, name] = inviteResultMessage(result).key.split('.') as [
    'snackbars',
    keyof typeof en.users.snackbars,
  ];
  return en.users[group][name];
};

describe('invite results (spec §4, §8)', () => {
  it('has the spec text for every result', () => {
    assert.equal(text('ALREADY_OK'), 'User already in team.');
    assert.equal(text('ADDED_OK'), 'User added to team');
    assert.equal(text('INVITATION_PENDING'), 'An invitation was sent');
  });

  it('says something went wrong for anything else', () => {
    assert.equal(text('MAYBE'), 'Something went wrong.');
    assert.equal(text(undefined), 'Something went wrong.');
    assert.equal(inviteResultMessage(undefined).variant, 'error');
  });
});
