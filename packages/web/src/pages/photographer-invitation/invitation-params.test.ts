import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkInvitationParams } from './invitation-params.ts';

const check = (query: string, user = 7) => checkInvitationParams(new URLSearchParams(query), user);

describe('photographer invitation parameters (spec §5)', () => {
  it('needs userid, ciid, token and selector', () => {
    assert.deepEqual(check('ciid=3&token=t&selector=s'), { ok: false, problem: 'invalidParameters' });
    assert.deepEqual(check('userid=7&token=t&selector=s'), { ok: false, problem: 'invalidParameters' });
    assert.deepEqual(check('userid=x&ciid=3&token=t&selector=s'), {
      ok: false,
      problem: 'invalidParameters',
    });
    assert.deepEqual(check('userid=7&ciid=3&selector=s'), { ok: false, problem: 'invalidParameters' });
  });

  it('needs the signed-in user', () => {
    assert.deepEqual(check('userid=8&ciid=3&token=t&selector=s'), { ok: false, problem: 'invalidUserId' });
    assert.deepEqual(check('userid=7&ciid=3&token=t&selector=s'), {
      ok: true,
      params: { userId: 7, entryId: 3, token: 't', selector: 's' },
    });
  });
});
