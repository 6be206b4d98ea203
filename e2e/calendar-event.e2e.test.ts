// Issue 27 items 6, 8, 10 in Chromium, English and German, at 1366 px and 390 px: the event dialog
// names subcategories in words and suggests News scenes, the team keeps its own flags (a flag in
// use says where before it goes), the row icons have tooltips equal to their labels, and a
// photographer's empty screens say whom to ask instead of asking him to create things.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { newAccount, signIn } from './support/accounts.ts';
import { type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { browserSuite, nextMonthDay, ownerAndPhotographer } from './support/suite.ts';

const texts = {
  en: {
    sport: [
      'Football',
      'Handball',
      'Basketball',
      'Ice hockey',
      'Tennis',
      'Motorsport',
      'Winter sports',
      'Athletics',
      'Cycling',
      'Other',
    ],
    news: ['Politics', 'Economy', 'Culture', 'Society', 'Local news'],
    newsCategory: 'News',
    sceneHint: /^What is photographed/,
    poland: 'Poland',
    captionEn: 'Caption English',
    copy: 'Copy event',
    inUse: /“Bild am Sonntag” is set on 1 event: Senatspressekonferenz \(15\.\d\d\.\d{4}\)\./,
    flagCount: '1 of 17',
    memberStart: (team: string) =>
      `${team} has not given you a project yet. Ask an owner or operator of ${team}:`,
    noInvitations: (team: string) =>
      `Your agency has not invited you to an event yet. Ask an owner or operator of ${team}.`,
  },
  de: {
    sport: [
      'Fußball',
      'Handball',
      'Basketball',
      'Eishockey',
      'Tennis',
      'Motorsport',
      'Wintersport',
      'Leichtathletik',
      'Radsport',
      'Sonstiges',
    ],
    news: ['Politik', 'Wirtschaft', 'Kultur', 'Gesellschaft', 'Lokales'],
    newsCategory: 'Nachrichten',
    sceneHint: /^Was fotografiert wird/,
    poland: 'Polen',
    captionEn: 'Bildunterschrift Englisch',
    copy: 'Termin kopieren',
    inUse: /„Bild am Sonntag“ ist bei 1 Termin gesetzt: Senatspressekonferenz \(15\.\d\d\.\d{4}\)\./,
    flagCount: '1 von 17',
    memberStart: (team: string) =>
      `${team} hat Ihnen noch kein Projekt gegeben. Fragen Sie einen Inhaber oder Operator von ${team}:`,
    noInvitations: (team: string) =>
      `Ihre Agentur hat Sie noch zu keinem Termin eingeladen. Fragen Sie einen Inhaber oder Operator von ${team}.`,
  },
} as const;

const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 860 };

async function assertNoSidewaysScroll(page: Page, where: string) {
  // Right after a viewport change the page may still be laid out for the old width (the calendar
  // swaps its table for cards on the next render): give it up to 2 s to settle.
  await page
    .waitForFunction((max) => document.documentElement.scrollWidth <= max, phone.width, { timeout: 2000 })
    .catch(() => {});
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `${where}: the page is ${width} px wide at ${phone.width} px`);
}

/** The texts of the open MUI menu or listbox. */
const listTexts = async (page: Page) =>
  (await page.getByRole('listbox').getByRole('option').allInnerTexts()).map((text) => text.trim());

describe('event dialog, team flags, tooltips and role-aware empty states (issue 27)', () => {
  const suite = browserSuite();

  const openPage = (language: 'en' | 'de', viewport: { width: number; height: number }) =>
    suite.openPage({ language, viewport });

  for (const language of ['en', 'de'] as const) {
    it(`owner: dialog in words, own flags, tooltips; photographer: whom to ask (${language})`, async () => {
      const t = texts[language];
      const team = `Flag Agency ${language}`;
      const owner = newAccount(`Ole${language}`, team);
      const photographer = newAccount(`Pia${language}`, `Pia Photo ${language}`);
      const page = await openPage(language, desktop);
      const problems: PageProblems = watchProblems(page);
      const api = await ownerAndPhotographer(suite.server, page, owner, photographer, language);

      // The dialog: subcategories in words, never the raw ids (item 8).
      await page.goto('/calendar');
      await page.getByTestId('calendar-new-event').click();
      const dialog = page.getByTestId('event-dialog');
      await dialog.waitFor();
      const subcategory = dialog.getByRole('combobox').nth(1);
      assert.equal((await subcategory.innerText()).trim(), t.sport[0]);
      await subcategory.click();
      assert.deepEqual(await listTexts(page), t.sport);
      await page.keyboard.press('Escape');
      await dialog.getByRole('combobox').nth(0).click();
      await page.getByRole('option', { name: t.newsCategory }).click();
      await subcategory.click();
      assert.deepEqual(await listTexts(page), t.news);
      await page.keyboard.press('Escape');
      // News suggests scenes (from the team's news.json) and Scene says what it wants.
      await dialog.getByText(t.sceneHint).waitFor();
      await page.getByTestId('event-scene').click();
      const scenes = await listTexts(page);
      assert.ok(scenes.includes('Pressekonferenz'), `news scenes: ${scenes.join(', ')}`);
      await page.getByRole('option', { name: 'Pressekonferenz', exact: true }).click();
      // The team's flags are offered in the dialog.
      await page.getByTestId('event-flags').click();
      const offered = await listTexts(page);
      assert.equal(offered.length, 17);
      assert.ok(offered.includes(t.poland));
      await page.keyboard.press('Escape');
      await page.getByTestId('event-date').fill(nextMonthDay().text);
      await page.getByTestId('event-summary').fill('Senatspressekonferenz');
      await settledScreenshot(page, `calendar-event-${language}-1-dialog-news-1366`);
      await page.setViewportSize(phone);
      await assertNoSidewaysScroll(page, 'event dialog');
      await settledScreenshot(page, `calendar-event-${language}-1-dialog-news-390`, { fullPage: false });
      assert.deepEqual(await seriousA11yProblems(page, '[data-testid="event-dialog"]'), []);
      await page.setViewportSize(desktop);
      await page.getByTestId('event-save').click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.locator('[data-testid^="entry-row-"][data-highlight="true"]', {
        hasText: 'Senatspressekonferenz',
      });
      await row.waitFor();

      // Row icons: a MUI tooltip with the same words as the aria-label (item 10).
      const copy = row.getByTestId('entry-copy');
      assert.equal(await copy.getAttribute('aria-label'), t.copy);
      await copy.hover();
      await page.getByRole('tooltip').getByText(t.copy, { exact: true }).waitFor();
      await page.mouse.move(0, 0);

      // The team's flag list: Poland goes (unused), "Bild am Sonntag" comes (item 8).
      await page.getByTestId('calendar-flag-list').click();
      const flagList = page.getByTestId('flag-list-dialog');
      await flagList.waitFor();
      assert.equal(await page.getByTestId('flag-name-16').inputValue(), t.poland);
      await page.getByTestId('flag-remove-16').click();
      await page.getByTestId('flag-row-16').waitFor({ state: 'detached' });
      await page.getByTestId('flag-new-name').fill('Bild am Sonntag');
      await page.getByTestId('flag-add').click();
      await page.getByTestId('flag-name-16').and(page.locator('[value="Bild am Sonntag"]')).waitFor();
      await page.setViewportSize(phone);
      await assertNoSidewaysScroll(page, 'flag list');
      await settledScreenshot(page, `calendar-event-${language}-2-flag-list-390`, { fullPage: false });
      assert.deepEqual(await seriousA11yProblems(page, '[data-testid="flag-list-dialog"]'), []);
      await page.setViewportSize(desktop);
      await settledScreenshot(page, `calendar-event-${language}-2-flag-list-1366`, { fullPage: false });
      await page.getByTestId('flag-list-close').click();
      await flagList.waitFor({ state: 'detached' });

      // Ticked on the event, it counts against the team's 17, and cannot vanish silently.
      await row.getByTestId('entry-flags').click();
      await page.getByTestId('entry-flags-list').getByText('Bild am Sonntag').waitFor();
      assert.equal(await page.getByTestId('entry-flags-list').getByText(t.poland).count(), 0);
      await page.getByTestId('flag-16').check();
      await row.getByTestId('entry-flags').getByText(t.flagCount).waitFor();
      await page.getByTestId('entry-flags-manage').click();
      await flagList.waitFor();
      await page.getByTestId('flag-remove-16').click();
      const inUse = page.getByTestId('flag-in-use-dialog');
      await inUse.getByText(t.inUse).waitFor();
      await settledScreenshot(page, `calendar-event-${language}-3-flag-in-use-1366`, { fullPage: false });
      await page.getByTestId('flag-in-use-dialog-confirm').click();
      await page.getByTestId('flag-row-16').waitFor({ state: 'detached' });
      await page.getByTestId('flag-list-close').click();
      await row
        .getByTestId('entry-flags')
        .getByText(language === 'en' ? '0 of 16' : '0 von 16')
        .waitFor();

      // The photographer's dashboard and calendar say whom to ask (item 6).
      const own = await openPage(language, phone);
      const ownProblems = watchProblems(own);
      await signIn(own, photographer);
      // He has a team of his own from signing up: switch to the agency's.
      const switched = await own.request.put(`${suite.server.url}/api/user/currentteam`, {
        headers: { 'Content-Type': 'application/json', Origin: suite.server.url },
        data: { teamid: api.team },
      });
      assert.ok(switched.ok(), `switching team: ${switched.status()}`);
      await own.goto('/');
      await own.getByTestId('member-start').getByText(t.memberStart(team)).waitFor();
      assert.equal(await own.getByTestId('first-steps').count(), 0, 'no "Create a project" for him');
      await assertNoSidewaysScroll(own, 'photographer dashboard');
      await settledScreenshot(own, `calendar-event-${language}-4-member-dashboard-390`);
      assert.deepEqual(await seriousA11yProblems(own), []);
      await own.goto('/calendar');
      await own.getByTestId('my-bookings').getByText(t.noInvitations(team)).waitFor();
      await assertNoSidewaysScroll(own, 'photographer calendar');
      assert.deepEqual(await seriousA11yProblems(own), []);
      await settledScreenshot(own, `calendar-event-${language}-5-member-calendar-390`);

      assert.deepEqual(problems.errors, []);
      assert.deepEqual(ownProblems.errors, []);
    });
  }
});
