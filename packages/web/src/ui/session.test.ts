import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialsOf, resolveCurrentTeam } from './session.ts';

const a = { teamid: '3f0c7c4e-2b1a-4c55-9a43-0d5b8f1e2a01', name: 'Alpha', ready: true };
const b = { teamid: '9b2d6a1c-7e4f-4d8a-8c31-5a6b7c8d9e02', name: 'Beta', ready: false };

describe('session', () => {
  it('uses the remembered team while the user is still a member', () => {
    assert.equal(resolveCurrentTeam({ logged_in: true, currentTeam: b.teamid, member_of: [a, b] }), b);
  });

  it('falls back to the first membership (spec §9)', () => {
    assert.equal(resolveCurrentTeam({ logged_in: true, currentTeam: null, member_of: [a, b] }), a);
    assert.equal(
      resolveCurrentTeam({
        logged_in: true,
        currentTeam: '00000000-0000-4000-8000-000000000000',
        member_of: [b, a],
      }),
      b,
    );
  });

  it('has no team without memberships', () => {
    assert.equal(resolveCurrentTeam({ logged_in: true, member_of: [] }), null);
  });

  it('builds initials from both names (spec §3)', () => {
    assert.equal(initialsOf('ada', 'lovelace'), 'AL');
    assert.equal(initialsOf(' Max ', ''), 'M');
  });
});
