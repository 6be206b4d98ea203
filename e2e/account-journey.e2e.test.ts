// Whole journey of a new customer (spec §2, §4, §5, §8): sign up, verify by mail, sign in, wait
// for the team, edit the profile, switch to German, log out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  type PageProblems,
  screenshot,
  watchProblems,
} from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

const email = `ada.${Date.now()}@example.com`;
const password = 'darkroom-42';

describe('account journey', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await newContext(browser, server.url);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the landing page with sign-in form and marketing text', async () => {
    await page.goto('/');
    await page.getByTestId('landing-page').waitFor();
    assert.match((await page.locator('h1').textContent()) ?? '', /easy and fast way to transfer/i);
    assert.ok(await page.getByText('Servers in Germany').first().isVisible());
    assert.ok(await page.getByTestId('landing-login').isVisible());
    assert.ok(await page.getByTestId('topbar-signin').isVisible());
    assert.ok(await page.getByTestId('topbar-signup').isVisible());
    // The sign-in button needs a password (spec §5).
    assert.ok(await page.getByTestId('login-submit').isDisabled());
    await screenshot(page, '01-landing');
  });

  it('validates the sign-up form word for word (spec §5)', async () => {
    await page.getByTestId('topbar-signup').click();
    await page.waitForURL('**/signup');
    await page.getByTestId('signup-form').waitFor();
    // 'Sign up' is hidden on the sign-up page itself.
    assert.equal(await page.getByTestId('topbar-signup').count(), 0);
    const submit = page.getByTestId('signup-submit');
    assert.ok(await submit.isDisabled());

    await page.getByTestId('signup-firstName').fill('Ada');
    await page.getByTestId('signup-lastName').fill('Lovelace');
    await page.getByTestId('signup-companyName').click();
    await page.getByTestId('signup-email').click();
    await page.getByTestId('signup-email').fill('ada@');
    await page.getByTestId('signup-password').click();
    await page.getByTestId('signup-password').fill('1234');
    await page.getByTestId('signup-repeat').click();
    await page.getByTestId('signup-repeat').fill('12345');
    await page.getByTestId('signup-firstName').click();
    for (const text of ['Required.', 'Invalid e-mail.', 'At least 5 characters', 'Passwords are not equal']) {
      assert.ok(await page.getByText(text, { exact: true }).first().isVisible(), `shows '${text}'`);
    }
    assert.ok(await submit.isDisabled());
    await screenshot(page, '02-signup-validation');
  });

  it('registers and shows the confirmation', async () => {
    await page.getByTestId('signup-companyName').fill('Lovelace Press Photos');
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill(password);
    await page.getByTestId('signup-repeat').fill(password);
    await screenshot(page, '03-signup-filled');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-sent').waitFor();
    await page.getByText(email).waitFor();
    await screenshot(page, '04-signup-sent');
  });

  it('refuses to sign in before the e-mail is verified', async () => {
    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.getByText('Please verify your email.').waitFor();
    await screenshot(page, '05-login-not-verified');
  });

  it('verifies the address from the mail and goes to sign in after 9 seconds', async () => {
    const link = await server.linkFromMail(email);
    const target = new URL(link);
    assert.equal(target.pathname, '/verify');
    await page.goto(`${target.pathname}${target.search}`);
    await page.getByTestId('verify-success').waitFor();
    await screenshot(page, '06-verify-success');
    const started = Date.now();
    await page.waitForURL('**/login', { timeout: 15_000 });
    const waited = Date.now() - started;
    assert.ok(waited > 6_000, `redirected after ${waited} ms`);
  });

  it('shows the banner for a wrong password', async () => {
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await page.getByText('Username or password incorrect.').waitFor();
    await screenshot(page, '07-login-invalid');
  });

  it('signs in and reaches the dashboard once the team is ready', async () => {
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/teamnotready');
    await page.getByTestId('job-summary-empty').waitFor({ timeout: 30_000 });
    assert.equal(new URL(page.url()).pathname, '/');
    assert.equal(await page.getByTestId('topbar-team').textContent(), 'Lovelace Press Photos');
    await page.getByTestId('app-drawer').waitFor();
    await screenshot(page, '08-dashboard');
  });

  it('shows name, team and group in the avatar menu', async () => {
    assert.equal(await page.getByTestId('user-menu-button').textContent(), 'AL');
    await page.getByTestId('user-menu-button').click();
    assert.equal(await page.getByTestId('user-menu-fullname').textContent(), 'Ada Lovelace');
    assert.equal(await page.getByTestId('user-menu-team').textContent(), 'Lovelace Press Photos');
    await page.getByTestId('user-menu-group').waitFor();
    // One team only: no 'Switch team'.
    assert.equal(await page.getByTestId('menu-change-team').count(), 0);
    await screenshot(page, '09-user-menu', { fullPage: false });
    await page.getByTestId('menu-profile').click();
    await page.waitForURL('**/userprofile');
  });

  it('edits the profile', async () => {
    await page.getByTestId('profile-form').waitFor();
    const save = page.getByTestId('profile-save');
    assert.ok(await save.isDisabled(), 'nothing changed yet');
    await page.getByTestId('profile-firstName').fill('');
    await page.getByTestId('profile-lastName').click();
    await page.getByText('Required.').waitFor();
    assert.ok(await save.isDisabled());
    await page.getByTestId('profile-firstName').fill('Augusta Ada');
    await save.click();
    await page.getByText('Profile saved.').waitFor();
    await page.getByTestId('profile-fullname').getByText('Augusta Ada Lovelace').waitFor();
    assert.equal(await page.getByTestId('user-menu-button').textContent(), 'AL');
    await page.getByTestId('profile-teams').getByText('Lovelace Press Photos').waitFor();
    await screenshot(page, '10-profile');
  });

  it('switches to German and keeps the choice', async () => {
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-de').click();
    await page.getByRole('heading', { name: 'Mein Profil' }).waitFor();
    await page.getByLabel('Vorname').first().waitFor();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Übersicht' }).first().waitFor();
    await page.getByText('Noch keine Übertragungen').waitFor();
    await screenshot(page, '11-dashboard-de');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('menu-logout').getByText('Abmelden').waitFor();
    await screenshot(page, '12-user-menu-de', { fullPage: false });
  });

  it('logs out to the landing page', async () => {
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('landing-page').waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByTestId('topbar-signin').getByText('Anmelden').waitFor();
    // A page for members asks to sign in first and keeps where to continue afterwards (issue 27
    // item 3; before, it led back to the start and the address was lost).
    await page.goto('/userprofile');
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('next') === '/userprofile',
    );
    await page.goto('/');
    await page.getByTestId('landing-page').waitFor();
    await screenshot(page, '13-landing-de');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });
});
