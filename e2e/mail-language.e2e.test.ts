// Issue 27 item 5: the language a signed-in user picks (the avatar menu's EN/DE, the profile page)
// is stored with the account, so that their mails and calendar feed follow it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { browserSuite, signUpOwner } from './support/suite.ts';

describe('language of mails', () => {
  const suite = browserSuite();

  const storedLanguage = (page: Page) =>
    page.evaluate(
      async () => ((await (await fetch('/api/user/info')).json()) as { language: string }).language,
    );
  const waitForStored = async (page: Page, language: string) => {
    const deadline = Date.now() + 10_000;
    while ((await storedLanguage(page)) !== language) {
      if (Date.now() > deadline) throw new Error(`language not stored as ${language}`);
      await page.waitForTimeout(200);
    }
  };

  it('the avatar menu and the profile page store the language; the profile page fits a phone', async () => {
    const account = newAccount('Sprache');
    const page = await suite.openPage({ timeout: 15_000 });
    await registerVerified(suite.server, page.request, account);
    const problems = watchProblems(page);
    await signIn(page, account);
    assert.equal(await storedLanguage(page), 'en');

    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-de').click();
    await waitForStored(page, 'de');

    await page.goto('/userprofile');
    const select = page.getByRole('combobox', { name: 'Sprache' });
    await select.waitFor();
    assert.equal((await select.textContent())?.trim(), 'Deutsch');
    await page.getByText('Die App, Ihre E-Mails und Ihr Kalender-Abo sind in dieser Sprache.').waitFor();
    assert.deepEqual(await seriousA11yProblems(page), []);
    await settledScreenshot(page, 'mail-language-profile-1366-de');

    await select.click();
    await page.getByTestId('profile-language-en').click();
    await waitForStored(page, 'en');
    const english = page.getByRole('combobox', { name: 'Language' });
    await english.waitFor();
    await page.getByText('The app, your e-mails and your calendar feed are in this language.').waitFor();
    assert.deepEqual(await seriousA11yProblems(page), []);
    await settledScreenshot(page, 'mail-language-profile-1366-en');

    await page.setViewportSize({ width: 390, height: 844 });
    for (const language of ['en', 'de'] as const) {
      if (language === 'de') {
        await english.click();
        await page.getByTestId('profile-language-de').click();
        await waitForStored(page, 'de');
        await page.getByRole('combobox', { name: 'Sprache' }).waitFor();
      }
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
      assert.deepEqual(await seriousA11yProblems(page), []);
      await settledScreenshot(page, `mail-language-profile-390-${language}`);
    }
    assert.deepEqual(problems.errors, []);
  });
  it("signing in on a new browser shows the member's stored language; switching there stores it", async () => {
    const firstPage = await suite.openPage({ timeout: 15_000 });
    const { account } = await signUpOwner(suite.server, firstPage, 'Neubrowser');
    await firstPage.getByTestId('user-menu-button').click();
    await firstPage.getByTestId('language-de').click();
    await waitForStored(firstPage, 'de');

    // A new browser (English, nobody chose a language in it): after signing in the app speaks German.
    const page = await suite.openPage({ timeout: 15_000, languageChosen: false });
    const problems = watchProblems(page);
    await signIn(page, account);
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    // The restored session of a reload keeps it.
    await page.reload();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor();

    // Switching to English there is stored and follows the member to the next browser.
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-en').click();
    await waitForStored(page, 'en');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const thirdPage = await suite.openPage({ language: 'de', timeout: 15_000, languageChosen: false });
    await signIn(thirdPage, account);
    await thirdPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    assert.equal(await thirdPage.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual(problems.errors, []);
  });
});
