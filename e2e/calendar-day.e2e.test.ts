// Issue 27 in Chromium, in English and German, on a 390 px phone: the owner creates an event next
// month and sees it at once; the photographer, invited by mail and logged out, follows the link,
// signs in, lands on the invitation, accepts, finds the event under "Calendar" in the drawer and
// reads his state in words. No calendar screen scrolls sideways at 390 px. Screenshots at 1366 px
// and 390 px of every calendar screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { type Account, newAccount } from './support/accounts.ts';
import { type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { browserSuite, nextMonthDay, ownerAndPhotographer } from './support/suite.ts';

const texts = {
  en: {
    noEvents: /^No events between \d\d\.\d\d\.(\d{4})? and \d\d\.\d\d\.(\d{4})?\.$/,
    events: /^1 event between /,
    openDrawer: 'Open navigation',
    calendar: 'Calendar',
    youAccepted: 'You accepted – waiting for the agency',
    ownerSees: 'Accepted – not booked yet',
    legend: 'Booked · not accredited yet',
    noTeamEvents: /read access to the team calendar/,
    answered: /^You accepted on \d\d\.\d\d\. – the event is in your calendar\.$/,
  },
  de: {
    noEvents: /^Keine Termine zwischen \d\d\.\d\d\.(\d{4})? und \d\d\.\d\d\.(\d{4})?\.$/,
    events: /^1 Termin zwischen /,
    openDrawer: 'Navigation öffnen',
    calendar: 'Kalender',
    youAccepted: 'Sie haben zugesagt – die Agentur entscheidet noch',
    ownerSees: 'Zugesagt – noch nicht gebucht',
    legend: 'Gebucht · noch nicht akkreditiert',
    noTeamEvents: /Lesezugriff auf den Teamkalender/,
    answered: /^Sie haben am \d\d\.\d\d\. zugesagt – der Termin steht in Ihrem Kalender\.$/,
  },
} as const;

const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 860 };

/** The page is no wider than the phone, and axe finds nothing serious on it (issue 27 item 9). */
async function assertNoSidewaysScroll(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `${where}: the page is ${width} px wide at ${phone.width} px`);
  assert.deepEqual(await seriousA11yProblems(page), [], `${where}: axe`);
}

/** A screenshot at 390 px and one at 1366 px of the same screen, back at 390 px afterwards. */
async function bothWidths(page: Page, name: string) {
  await settledScreenshot(page, `${name}-390`);
  await page.setViewportSize(desktop);
  await settledScreenshot(page, `${name}-1366`);
  await page.setViewportSize(phone);
}

describe('the calendar and the photographer’s day (issue 27)', () => {
  const suite = browserSuite();

  const openPage = (language: 'en' | 'de') => suite.openPage({ language, viewport: phone });

  for (const language of ['en', 'de'] as const) {
    it(`owner plans next month, the photographer answers from the mail (${language}, 390 px)`, async () => {
      const t = texts[language];
      const owner = newAccount(`Olga${language}`, `Day Agency ${language}`);
      const photographer: Account = newAccount(`Piet${language}`, `Piet Photo ${language}`);
      const page = await openPage(language);
      const problems: PageProblems = watchProblems(page);
      const _api = await ownerAndPhotographer(suite.server, page, owner, photographer, language);

      // Opens on today and says which days it shows; a fresh team has none.
      await page.goto('/calendar');
      const range = page.getByTestId('calendar-range');
      await range.filter({ hasText: t.noEvents }).waitFor();
      const today = await page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      // The team's zone (Europe/Berlin) and the browser's may differ by a day around midnight.
      const start = (await range.getAttribute('data-start')) ?? '';
      assert.ok(Math.abs(Date.parse(start) - Date.parse(today)) <= 86_400_000, `starts today, not ${start}`);
      await page.getByTestId('calendar-empty').getByText(t.noEvents).waitFor();
      await assertNoSidewaysScroll(page, 'owner, empty agenda');
      await bothWidths(page, `calendar-day-${language}-1-empty`);

      // A new event next month is listed at once, marked, and the sentence counts it.
      const day = nextMonthDay();
      await page.getByTestId('calendar-new-event').click();
      const dialog = page.getByTestId('event-dialog');
      await dialog.waitFor();
      // Save stays in view on a low desktop window (item 8: sticky actions).
      await page.setViewportSize({ width: 1366, height: 768 });
      const save = await page.getByTestId('event-save').boundingBox();
      assert.ok(save && save.y + save.height <= 768, `Save at ${save?.y} is below the fold`);
      await settledScreenshot(page, `calendar-day-${language}-2a-dialog-1366x768`);
      await page.setViewportSize(phone);
      await page.getByTestId('event-date').fill(day.text);
      await page.getByTestId('event-scene').fill('Bundesliga');
      await page.getByTestId('event-team1').fill('FC Nord');
      await page.getByTestId('event-team2').fill('SV Süd');
      await page.getByTestId('event-city').fill('Hamburg');
      await page.getByTestId('event-save').click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.locator('[data-testid^="entry-row-"][data-highlight="true"]', {
        hasText: 'FC Nord - SV Süd',
      });
      await row.waitFor();
      await page.getByTestId(`calendar-day-${day.iso}`).waitFor();
      await range.filter({ hasText: t.events }).waitFor();
      const entryId = Number((await row.getAttribute('data-testid'))?.replace('entry-row-', ''));
      await assertNoSidewaysScroll(page, 'owner, agenda with the new event');
      await bothWidths(page, `calendar-day-${language}-2-created`);

      // The month grid of next month shows it on its day.
      await page.getByTestId('calendar-view-month').click();
      await page.getByTestId('calendar-next').click();
      await page.locator(`[data-testid="calendar-cell-${day.iso}"][data-count="1"]`).waitFor();
      await row.waitFor();
      await assertNoSidewaysScroll(page, 'owner, month grid');
      await bothWidths(page, `calendar-day-${language}-3-month`);
      await page.getByTestId('calendar-view-agenda').click();
      await page.getByTestId('calendar-today').click();

      // Invite the photographer by mail.
      await row.getByTestId('entry-invite').click();
      await page.getByTestId(`invite-user-${photographer.email}`).click();
      await page.getByTestId('invite-submit').click();
      await page.getByTestId('invite-dialog').waitFor({ state: 'detached' });
      const link = new URL(await suite.server.linkFromMail(photographer.email, /PhotoRelay/));
      assert.equal(link.pathname, '/acceptPhotographerInivitation');

      // Logged out, the link asks to sign in first, then continues to the invitation.
      const own = await openPage(language);
      const ownProblems = watchProblems(own);
      await own.goto(`${link.pathname}${link.search}`);
      await own.getByTestId('login-page').waitFor();
      assert.equal(new URL(own.url()).searchParams.get('next'), `${link.pathname}${link.search}`);
      await assertNoSidewaysScroll(own, 'sign-in with a next page');
      await own.getByTestId('login-email').fill(photographer.email);
      await own.getByTestId('login-password').fill(photographer.password);
      await own.getByTestId('login-submit').click();
      await own.getByTestId('invitation-event').getByText('FC Nord - SV Süd').waitFor();
      assert.equal(new URL(own.url()).pathname, '/acceptPhotographerInivitation');
      await bothWidths(own, `calendar-day-${language}-4-invitation`);
      await own.getByTestId('invitation-accept').click();
      await own.getByTestId('invitation-accepted').waitFor();
      // Opened again, the link says what was answered instead of asking again (item 7).
      await own.reload();
      await own.getByTestId('invitation-answered').getByText(t.answered).waitFor();
      assert.equal(await own.getByTestId('invitation-accept').count(), 0);

      // "Calendar" in the drawer, without any folder right: his state in words, one per event.
      await own.getByRole('button', { name: t.openDrawer }).click();
      // The phone's sliding drawer (the permanent one is hidden at this width).
      await own.getByRole('link', { name: t.calendar, exact: true }).click();
      await own.getByTestId('calendar-page').waitFor();
      const mine = own.getByTestId(`my-booking-${entryId}`);
      await mine.getByText('FC Nord - SV Süd').waitFor();
      assert.equal(await mine.getByTestId('my-booking-state').innerText(), t.youAccepted);
      assert.equal(await mine.getByTestId('my-booking-state').count(), 1, 'one state per event');
      // Without read on the team calendar, the page says how the team's events would appear.
      await own.getByTestId('calendar-no-team-events').getByText(t.noTeamEvents).waitFor();
      await assertNoSidewaysScroll(own, 'photographer calendar');
      await bothWidths(own, `calendar-day-${language}-5-photographer`);

      // The owner reads the answer in words, with the colours' legend.
      await page.reload();
      const booking = page
        .getByTestId(`entry-row-${entryId}`)
        .locator('[data-testid^="booking-"][data-answer="accepted"]');
      await booking.getByText(t.ownerSees).waitFor();
      await page.getByTestId('booking-legend').getByText(t.legend).waitFor();
      await assertNoSidewaysScroll(page, 'owner, answered');
      await bothWidths(page, `calendar-day-${language}-6-answered`);

      assert.deepEqual(problems.errors, []);
      assert.deepEqual(ownProblems.errors, []);
    });
  }
});
