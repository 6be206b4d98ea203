import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDebugParam } from '../ui/debug-mode.ts';
import { safeNext } from '../ui/next-path.ts';
import { guardRedirect } from './route-access.ts';

const ready = { ready: true };
const notReady = { ready: false };

describe('route guard (spec §2)', () => {
  it('lets visitors reach only the public pages', () => {
    for (const pathname of [
      '/',
      '/login',
      '/signup',
      '/recover',
      '/resetPassword',
      '/verify',
      '/imprint',
      '/termsandconditions',
      '/privacy',
    ]) {
      assert.equal(guardRedirect({ pathname, loggedIn: false, team: null }), null, pathname);
    }
    for (const pathname of [
      '/users',
      '/welcome',
      '/userprofile',
      '/noteam',
      '/teamnotready',
      '/project/overview',
      '/calendar',
      '/nowhere',
    ]) {
      assert.equal(
        guardRedirect({ pathname, loggedIn: false, team: null }),
        `/login?next=${encodeURIComponent(pathname)}`,
        pathname,
      );
    }
  });

  it('shows visitors the 404 page of an unknown address, not the sign-in (issue 27 item 7)', () => {
    assert.equal(guardRedirect({ pathname: '/nowhere', known: false, loggedIn: false, team: null }), null);
  });

  it('keeps the page asked for across the sign-in (issue 27 item 3)', () => {
    const link = '/acceptPhotographerInivitation';
    const search = '?userid=7&ciid=3&token=t&selector=s';
    const login = guardRedirect({ pathname: link, search, loggedIn: false, team: null });
    assert.equal(login, `/login?next=${encodeURIComponent(link + search)}`);
    const loginSearch = (login ?? '').slice('/login'.length);
    assert.equal(
      guardRedirect({ pathname: '/login', search: loginSearch, loggedIn: true, team: ready }),
      link + search,
    );
    // Never to another site or back to a sign-in page.
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '/login?next=/x', ''])
      assert.equal(safeNext(next), null, next);
    assert.equal(
      guardRedirect({ pathname: '/login', search: '?next=%2F%2Fevil.example', loggedIn: true, team: ready }),
      '/',
    );
  });

  it('sends signed-in users away from the sign-in pages to / (issue 16 item 10)', () => {
    for (const pathname of ['/login', '/signup', '/recover', '/Login/']) {
      assert.equal(guardRedirect({ pathname, loggedIn: true, team: ready }), '/', pathname);
    }
    assert.equal(guardRedirect({ pathname: '/verify', loggedIn: true, team: ready }), null);
  });

  it('matches paths case-insensitively and ignores a trailing slash', () => {
    assert.equal(guardRedirect({ pathname: '/resetpassword/', loggedIn: false, team: null }), null);
    assert.equal(guardRedirect({ pathname: '/USERS', loggedIn: false, team: null }), '/login?next=%2FUSERS');
  });

  it('sends members without a team to /noteam', () => {
    assert.equal(guardRedirect({ pathname: '/', loggedIn: true, team: null }), '/noteam');
    assert.equal(guardRedirect({ pathname: '/userprofile', loggedIn: true, team: null }), '/noteam');
    assert.equal(guardRedirect({ pathname: '/noteam', loggedIn: true, team: null }), null);
  });

  it('sends members of a team that is not ready to /teamnotready', () => {
    assert.equal(guardRedirect({ pathname: '/', loggedIn: true, team: notReady }), '/teamnotready');
    assert.equal(guardRedirect({ pathname: '/teamnotready', loggedIn: true, team: notReady }), null);
  });

  it('keeps the legal pages open without a team', () => {
    for (const pathname of ['/imprint', '/privacy', '/termsandconditions']) {
      assert.equal(guardRedirect({ pathname, loggedIn: true, team: null }), null);
      assert.equal(guardRedirect({ pathname, loggedIn: true, team: notReady }), null);
    }
  });

  it('lets members with a ready team go anywhere', () => {
    for (const pathname of ['/', '/users', '/project/overview', '/welcome', '/noteam']) {
      assert.equal(guardRedirect({ pathname, loggedIn: true, team: ready }), null, pathname);
    }
  });
});

describe('debug parameter', () => {
  it('switches on for 1/true and off for 0/false', () => {
    assert.equal(parseDebugParam('1'), true);
    assert.equal(parseDebugParam('true'), true);
    assert.equal(parseDebugParam('TRUE'), true);
    assert.equal(parseDebugParam('0'), false);
    assert.equal(parseDebugParam('false'), false);
    assert.equal(parseDebugParam(null), undefined);
    assert.equal(parseDebugParam('maybe'), undefined);
  });
});
