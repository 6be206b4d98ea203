// App shell, route guard and the smaller account screens (spec §2, §4, §5, §8).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  type Account,
  currentTeamOf,
  jsonHeaders,
  newAccount,
  registerVerified,
  signIn,
} from './support/accounts.ts';
import { launchBrowser, newContext, screenshot, watchProblems } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

describe('app shell and route guard', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const openPage = async (
    options: { viewport?: { width: number; height: number }; locale?: string } = {},
  ) => {
    const context = await newContext(browser, server.url, options);
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    return page;
  };
  const pathOf = (page: Page) => new URL(page.url()).pathname;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('sends visitors from member pages to the sign-in page, which keeps the page asked for', async () => {
    const page = await openPage();
    for (const target of [
      '/users',
      '/noteam',
      '/teamnotready',
      '/project?id=1',
      '/userprofile',
      '/calendar',
    ]) {
      await page.goto(target);
      await page.getByTestId('login-page').waitFor();
      assert.equal(pathOf(page), '/login', `${target} redirects to /login`);
      assert.equal(new URL(page.url()).searchParams.get('next'), target, `${target} is kept`);
    }
    // An unknown address is a real 404 for visitors too (issue 27 item 7).
    await page.goto('/no-such-page');
    await page.getByTestId('not-found').waitFor();
    assert.equal(pathOf(page), '/no-such-page');
    for (const target of ['/login', '/signup', '/recover', '/imprint', '/privacy', '/termsandconditions']) {
      await page.goto(target);
      await page.waitForLoadState('networkidle');
      assert.equal(pathOf(page).toLowerCase(), target, `${target} stays`);
    }
  });

  it('shows the German legal pages with the operator and every figure', async () => {
    const page = await openPage();
    const settings = await (await page.request.get(`${server.url}/api/settings/public`)).json();
    await page.goto('/imprint');
    const imprint = page.getByTestId('legal-imprint');
    await imprint
      .getByText('Impressum')
      .or(page.getByRole('heading', { name: 'Impressum' }))
      .first()
      .waitFor();
    await imprint.getByText(settings.operatorName).first().waitFor();
    await screenshot(page, '20-imprint');

    await page.goto('/privacy');
    const privacy = page.getByTestId('legal-privacy');
    await privacy.getByText('höchstens 30 Tage', { exact: false }).first().waitFor();
    const privacyText = (await privacy.textContent()) ?? '';
    for (const figure of [
      '4 Jahre',
      '10 Jahre',
      '6 Jahre',
      'bis zu zwei Jahre',
      'Deutschland',
      settings.operatorName,
    ]) {
      assert.ok(privacyText.includes(figure), `privacy mentions ${figure}`);
    }
    await screenshot(page, '21-privacy');

    await page.goto('/termsandconditions');
    const terms = page.getByTestId('legal-terms');
    await terms.getByText('auf unbestimmte Zeit', { exact: false }).waitFor();
    const termsText = (await terms.textContent()) ?? '';
    for (const figure of ['14 Tage', 'mindestens 60 Tage', 'Karten- und Wallet-Zahlungen', 'per E-Mail']) {
      assert.ok(termsText.includes(figure), `terms mention ${figure}`);
    }
    await screenshot(page, '22-terms');
  });

  it('explains broken verification links', async () => {
    const page = await openPage();
    await page.goto('/verify');
    await page.getByText('invalid parameters').waitFor();
    assert.equal(await page.getByTestId('topbar-signup').count(), 0, "no 'Sign up' on /verify");
    await screenshot(page, '23-verify-invalid');
    await page.goto('/verify?token=nope&selector=nope');
    await page.getByText('Something went wrong - please try again').waitFor();
    await screenshot(page, '24-verify-failed');
  });

  it('recovers a forgotten password by mail', async () => {
    const account = newAccount('Recover');
    const page = await openPage();
    await registerVerified(server, page.request, account);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/recover');
    await page.getByTestId('recover-email').fill('not-an-address');
    await page.getByTestId('recover-email').blur();
    await page.getByText('Invalid e-mail.').waitFor();
    assert.ok(await page.getByTestId('recover-submit').isDisabled());
    await screenshot(page, '25-recover');
    await page.getByTestId('recover-email').fill(account.email);
    await page.getByTestId('recover-submit').click();
    await page.getByTestId('recover-sent').waitFor();
    await screenshot(page, '26-recover-sent');

    await page.goto('/resetPassword');
    await page.getByTestId('reset-invalid').getByText('invalid parameters').waitFor();

    const link = new URL(await server.linkFromMail(account.email, /password|Passwort/i));
    assert.equal(link.pathname, '/resetPassword');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByTestId('reset-password').fill('new-secret-9');
    await page.getByTestId('reset-repeat').fill('new-secret-8');
    await page.getByTestId('reset-password').click();
    await page.getByText('Passwords are not equal').waitFor();
    await screenshot(page, '27-reset-password');
    await page.getByTestId('reset-repeat').fill('new-secret-9');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-done').waitFor();
    await screenshot(page, '28-reset-done');
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByTestId('job-summary-empty').waitFor({ timeout: 30_000 });

    // The same link again says it was used (issue 27 item 7), not 'Something went WRONG!'.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByTestId('reset-password').fill('new-secret-7');
    await page.getByTestId('reset-repeat').fill('new-secret-7');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-problem').getByText('This link was already used or has expired.').waitFor();

    // The old password no longer works; the new one does.
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('landing-page').waitFor();
    await signIn(page, { ...account, password: 'new-secret-9' });
  });

  describe('a signed-in member', () => {
    let owner: Account;
    let page: Page;

    before(async () => {
      owner = newAccount('Olivia', 'Olivia Sports Images');
      page = await openPage();
      await registerVerified(server, page.request, owner);
      await signIn(page, owner);
    });

    it('sees the folder tree in a drawer that can be resized and remembers its width', async () => {
      const drawer = page.getByTestId('app-drawer');
      await page.getByTestId('folder-tree').waitFor();
      for (const label of ['Projects', 'FTP servers', 'Calendars', 'Settings']) {
        await drawer.getByText(label, { exact: true }).waitFor();
      }
      const width = async () => (await drawer.boundingBox())?.width ?? 0;
      assert.equal(Math.round(await width()), 200);
      const handle = page.getByTestId('drawer-resize-handle');
      const box = await handle.boundingBox();
      assert.ok(box);
      assert.equal(Math.round(box.width), 3, 'the border is 3 px');
      await page.mouse.move(box.x + 1, box.y + 200);
      await page.mouse.down();
      await page.mouse.move(box.x + 101, box.y + 200, { steps: 5 });
      await page.mouse.up();
      assert.equal(Math.round(await width()), 300);
      await page.reload();
      await page.getByTestId('folder-tree').waitFor();
      assert.equal(Math.round(await width()), 300, 'width survives a reload');
      const again = await handle.boundingBox();
      assert.ok(again);
      await page.mouse.move(again.x + 1, again.y + 200);
      await page.mouse.down();
      await page.mouse.move(again.x + 600, again.y + 200, { steps: 5 });
      await page.mouse.up();
      assert.equal(Math.round(await width()), 400, 'at most 400 px');
      const widest = await handle.boundingBox();
      assert.ok(widest);
      await page.mouse.move(widest.x + 1, widest.y + 200);
      await page.mouse.down();
      await page.mouse.move(widest.x - 400, widest.y + 200, { steps: 5 });
      await page.mouse.up();
      assert.equal(Math.round(await width()), 120, 'at least 120 px');
      await page.evaluate(() => localStorage.removeItem('photorelay.drawerWidth'));
      await page.reload();
      await page.getByTestId('folder-tree').waitFor();
      await drawer.getByText('Settings', { exact: true }).click();
      await drawer.getByText('Users', { exact: true }).waitFor();
      await screenshot(page, '30-dashboard-drawer');
    });

    it('redirects /project to its overview and shows placeholders and a not-found page', async () => {
      await page.goto('/project?id=7');
      await page.waitForURL('**/project/overview?id=7');
      // Another team's (or no) project is simply not there.
      await page.getByTestId('project-not-found').waitFor();
      await page.goto('/calendar');
      await page.getByTestId('calendar-page').waitFor();
      await screenshot(page, '31-calendar');
      await page.goto('/no/such/page');
      await page.getByTestId('not-found').waitFor();
      await screenshot(page, '32-not-found');
    });

    it('shows FAILED when the network is down and the server text for an error answer', async () => {
      await page.goto('/userprofile');
      await page.getByTestId('profile-form').waitFor();
      await page.route('**/api/user/info', (route) =>
        route.request().method() === 'PUT' ? route.abort('connectionrefused') : route.fallback(),
      );
      await page.getByTestId('profile-lastName').fill('Offline');
      await page.getByTestId('profile-save').click();
      await page.getByText('FAILED', { exact: true }).waitFor();
      await screenshot(page, '33-network-failed', { fullPage: false });
      await page.unroute('**/api/user/info');
      await page.route('**/api/user/info', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 403, json: { error: 'MissingPermission' } })
          : route.fallback(),
      );
      await page.getByTestId('profile-save').click();
      await page.getByText('You do not have permission for this action.').waitFor();
      await page.unroute('**/api/user/info');
    });

    it('goes to /noteam without a team and to /teamnotready until the team is ready', async () => {
      const teamless = await openPage();
      const problems = watchProblems(teamless);
      await teamless.context().addCookies(await page.context().cookies());
      await teamless.route('**/api/user/info', async (route) => {
        const response = await route.fetch();
        const info = await response.json();
        await route.fulfill({ response, json: { ...info, currentTeam: null, member_of: [] } });
      });
      await teamless.goto('/users');
      await teamless.waitForURL('**/noteam');
      await teamless.getByText('You are currently not a member of a team.').waitFor();
      assert.equal(await teamless.getByTestId('app-drawer').count(), 0);
      await screenshot(teamless, '34-noteam');
      await teamless.goto('/imprint');
      await teamless.getByTestId('legal-imprint').waitFor();
      assert.equal(pathOf(teamless), '/imprint', 'legal pages need no team');

      await teamless.unroute('**/api/user/info');
      let ready = false;
      await teamless.route('**/api/user/info', async (route) => {
        const response = await route.fetch();
        const info = await response.json();
        const member_of = info.member_of.map((team: { ready: boolean }) => ({ ...team, ready }));
        await route.fulfill({ response, json: { ...info, member_of } });
      });
      await teamless.goto('/userprofile');
      await teamless.waitForURL('**/teamnotready');
      await teamless.getByText('Your account is being set up. Please retry in some minutes.').waitFor();
      await screenshot(teamless, '35-teamnotready');
      ready = true;
      // The page polls user info and moves on by itself.
      await teamless.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await teamless.getByTestId('job-summary-empty').waitFor();
      assert.deepEqual(problems.errors, []);
    });

    it('lets an invited photographer sign up from the invitation mail', async () => {
      const ownerTeam = await currentTeamOf(page);
      const invitedEmail = `invited.${Date.now()}@example.com`;
      const invite = await page.request.post(`${server.url}/api/${ownerTeam}/user`, {
        headers: jsonHeaders(server),
        data: { email: invitedEmail, sendInvitationIfNeeded: true },
      });
      assert.equal((await invite.json()).result, 'INVITATION_PENDING');
      const link = new URL(await server.linkFromMail(invitedEmail));
      assert.equal(link.pathname, '/signup');
      assert.equal(link.searchParams.get('team'), ownerTeam);

      const guest = await openPage();
      await guest.goto(`${link.pathname}${link.search}`);
      await guest.getByRole('heading', { name: 'Accept invitation' }).waitFor();
      assert.equal(await guest.getByTestId('signup-companyName').count(), 0, 'no company in invitation mode');
      const emailField = guest.getByTestId('signup-email');
      assert.equal(await emailField.inputValue(), invitedEmail);
      assert.ok(await emailField.isDisabled(), 'the e-mail is fixed');
      await guest.getByTestId('signup-firstName').fill('Ines');
      await guest.getByTestId('signup-lastName').fill('Invited');
      await guest.getByTestId('signup-password').fill('aperture-8');
      await guest.getByTestId('signup-repeat').fill('aperture-8');
      await screenshot(guest, '29-signup-invitation');
      await guest.getByTestId('signup-submit').click();
      // Issue 27 item 3: the invitation's sign-up signs in, straight into the team.
      await guest.getByTestId('topbar-team').getByText('Olivia Sports Images').waitFor();
      await guest.getByTestId('user-menu-button').click();
      await guest.getByTestId('user-menu-group').getByText('Photographer').waitFor();
    });

    it('switches between teams with "Switch team" (Team wechseln)', async () => {
      const guest = newAccount('Gustav', 'Gustav Newsroom');
      const other = await openPage();
      await registerVerified(server, other.request, guest);
      await signIn(other, guest);
      assert.equal(await other.getByTestId('topbar-team').textContent(), 'Gustav Newsroom');

      // Olivia adds Gustav to her team.
      const ownerTeam = await currentTeamOf(page);
      const invite = await page.request.post(`${server.url}/api/${ownerTeam}/user`, {
        headers: jsonHeaders(server),
        data: { email: guest.email, sendInvitationIfNeeded: true },
      });
      assert.ok(invite.ok(), await invite.text());
      // An existing account joins only by accepting the mailed invitation.
      const link = new URL(await server.linkFromMail(guest.email, /invited to join|Einladung in das Team/));
      const accept = await other.request.post(`${server.url}/api/user/acceptInvitation`, {
        headers: jsonHeaders(server),
        data: { token: link.searchParams.get('token') },
      });
      assert.ok(accept.ok(), await accept.text());

      // Accepting makes the new team the current one; the switch leads back to Gustav's own team.
      await other.reload();
      await other.getByTestId('topbar-team').getByText('Olivia Sports Images').waitFor();
      await other.getByTestId('user-menu-button').click();
      await other.getByTestId('menu-change-team').getByText('Switch team').click();
      const dialog = other.getByRole('dialog', { name: 'Switch team' });
      await dialog.getByText('Gustav Newsroom').waitFor();
      await screenshot(other, '36-change-team', { fullPage: false });
      await dialog.getByText('Gustav Newsroom').click();
      await other.getByTestId('topbar-team').getByText('Gustav Newsroom').waitFor();
      await other.getByText('Switched to team Gustav Newsroom.').waitFor();
      await other.reload();
      await other.getByTestId('topbar-team').getByText('Gustav Newsroom').waitFor();
      await other.getByTestId('user-menu-button').click();
      assert.equal(await other.getByTestId('user-menu-team').textContent(), 'Gustav Newsroom');
    });

    it('turns debug mode on and off and shows the general error dialog', async () => {
      await page.goto('/?debug=1');
      await page.getByTestId('job-summary-empty').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('photorelay.debug')), '1');
      await page.goto('/userprofile');
      await page.getByTestId('profile-form').waitFor();
      assert.equal(
        await page.evaluate(() => sessionStorage.getItem('photorelay.debug')),
        '1',
        'kept for the session',
      );
      await page.evaluate(() => {
        const debug = (window as unknown as { photorelayDebug: { showFatalError: (e: unknown) => void } })
          .photorelayDebug;
        debug.showFatalError(new Error('Simulated failure for the e2e test'));
      });
      await page
        .getByText('A problem has been detected and the app has been shut down. You need to reload the page.')
        .waitFor();
      await page.getByTestId('fatal-error-detail').getByText('Simulated failure', { exact: false }).waitFor();
      await screenshot(page, '37-blue-screen', { fullPage: false });
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByTestId('profile-form').waitFor();
      await page.goto('/?debug=false');
      await page.getByTestId('job-summary-empty').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('photorelay.debug')), null);
    });
  });

  it('works on a phone', async () => {
    const account = newAccount('Mia', 'Mia Mobile Press');
    const phone = await openPage({ viewport: { width: 390, height: 844 } });
    await phone.goto('/');
    await phone.getByTestId('landing-page').waitFor();
    await screenshot(phone, '40-mobile-landing', { fullPage: false });
    await screenshot(phone, '40-mobile-landing-full');
    await registerVerified(server, phone.request, account);
    await signIn(phone, account);
    await screenshot(phone, '41-mobile-dashboard', { fullPage: false });
    assert.equal(await phone.getByTestId('app-drawer').isVisible(), false, 'the drawer slides in on demand');
    await phone.getByRole('button', { name: 'Open navigation' }).click();
    await phone.getByTestId('folder-tree').last().waitFor();
    await screenshot(phone, '42-mobile-drawer', { fullPage: false });
  });
});
