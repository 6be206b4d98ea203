// The match day of issue 12 in Chromium, in English and in German: the owner creates an event,
// invites a photographer, the photographer accepts from the mailed link, the owner accepts the
// booking and tracks the accreditation to green (spec §4 chip colours, read as computed styles),
// and downloads the event's XMP sidecar.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Account, addToTeam, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { browserSuite } from './support/suite.ts';
import { teamApi } from './support/team-api.ts';

// Spec §4 'Booking state' colours as the page paints them.
const colours = {
  lightblue: 'rgb(173, 216, 230)',
  red: 'rgb(198, 40, 40)',
  yellow: 'rgb(253, 216, 53)',
  green: 'rgb(46, 125, 50)',
};

const texts = {
  en: {
    time: 'Time',
    accept: 'Accept booking',
    required: 'Required.',
    myBookings: 'My bookings',
    myAccept: 'Accept',
    myReject: 'Reject',
    history: 'Accreditation: Accreditation requested → Accredited',
    historyAnswer: 'Answer: No answer yet → The photographer accepted',
  },
  de: {
    time: 'Zeit',
    accept: 'Buchung annehmen',
    required: 'Pflichtfeld.',
    myBookings: 'Meine Buchungen',
    myAccept: 'Annehmen',
    myReject: 'Ablehnen',
    history: 'Akkreditierung: Akkreditierung beantragt → Akkreditiert',
    historyAnswer: 'Antwort: Noch keine Antwort → Der Fotograf hat zugesagt',
  },
} as const;

/** dd.mm.yyyy of today plus `days` (the events of 'My bookings' lie ahead). */
const dayFromNow = (days: number) => {
  const day = new Date(Date.now() + days * 86_400_000);
  return `${String(day.getUTCDate()).padStart(2, '0')}.${String(day.getUTCMonth() + 1).padStart(2, '0')}.${day.getUTCFullYear()}`;
};

describe('event calendar journey', () => {
  const suite = browserSuite();

  const openPage = (language: 'en' | 'de') => suite.openPage({ language, timeout: 15_000 });

  const chipColour = (page: Page, userId: number) =>
    page
      .getByTestId(`booking-${userId}`)
      .getByTestId('booking-chip')
      .evaluate((chip) => getComputedStyle(chip).backgroundColor);

  /** Picks a menu entry of the photographer's chip and waits for the chip to show the new tone. */
  const changeBooking = async (page: Page, userId: number, action: string, tone: keyof typeof colours) => {
    await page.getByTestId(`booking-${userId}`).getByTestId('booking-chip').click();
    await page.getByTestId(`booking-action-${action}`).click();
    await page.locator(`[data-testid="booking-${userId}"] [data-tone="${tone}"]`).waitFor();
    assert.equal(await chipColour(page, userId), colours[tone], `${action} paints the chip ${tone}`);
  };

  for (const language of ['en', 'de'] as const) {
    it(`plans a match day (${language})`, async () => {
      const t = texts[language];
      const owner = newAccount(`Owner${language}`, `Match Agency ${language}`);
      const photographer: Account = newAccount(`Paula${language}`, `Paula Photo ${language}`);
      const page = await openPage(language);
      const problems: PageProblems = watchProblems(page);
      await registerVerified(suite.server, page.request, owner);
      await registerVerified(suite.server, page.request, photographer);
      await signIn(page, owner);
      const api = await teamApi(page, suite.server);
      // An existing account joins the team in the Photographer group once it accepts the invitation.
      await addToTeam(suite.server, page.request, api, photographer.email, language);
      const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
      const photographerId = members.find((member) => member.email === photographer.email)?.dbuserid;
      assert.ok(photographerId);

      // The calendar of the tree, from today on.
      await page.goto('/calendar');
      await page.getByTestId('calendar-page').waitFor();
      await page.getByTestId('calendar-today').click();
      await page.getByTestId('calendar-new-event').click();
      const dialog = page.getByTestId('event-dialog');
      await dialog.waitFor();
      // Spec §5: defaults 17:00, sport, football; scene is required.
      assert.equal(await page.getByTestId('event-time').inputValue(), '17:00');
      assert.equal(await page.getByTestId('event-endTime').inputValue(), '19:00');
      await page.getByTestId('event-save').click();
      await dialog.getByText(t.required).first().waitFor();
      await page.getByTestId('event-scene').fill('Bundesliga');
      await page.getByTestId('event-team1').fill('FC Nord');
      await page.getByTestId('event-team2').fill('SV Süd');
      await page.getByTestId('event-city').fill('Hamburg');
      await page.getByTestId('event-country').fill('Deutschland');
      await page.getByTestId('event-save').click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.locator('[data-testid^="entry-row-"]', { hasText: 'FC Nord - SV Süd' });
      await row.waitFor();
      assert.match(await row.getByTestId('entry-time').innerText(), /^17:00 – 19:00$/);
      await page.getByRole('columnheader', { name: t.time, exact: true }).waitFor();
      const entryId = Number((await row.getAttribute('data-testid'))?.replace('entry-row-', ''));

      // Invite the photographer; the mail carries the link to the invitation page.
      await row.getByTestId('entry-invite').click();
      await page.getByTestId(`invite-user-${photographer.email}`).click();
      await page.getByTestId('invite-submit').click();
      await page.getByTestId('invite-dialog').waitFor({ state: 'detached' });
      await row.getByTestId(`booking-${photographerId}`).waitFor();
      assert.equal(await chipColour(page, photographerId), colours.lightblue, 'an invitation is light blue');
      await settledScreenshot(page, `calendar-${language}-1-invited`);

      const link = new URL(await suite.server.linkFromMail(photographer.email, /PhotoRelay/));
      assert.equal(link.pathname, '/acceptPhotographerInivitation');
      assert.equal(link.searchParams.get('ciid'), String(entryId));
      const photographerPage = await openPage(language);
      await signIn(photographerPage, photographer);
      await photographerPage.goto(`${link.pathname}${link.search}`);
      await photographerPage.getByTestId('invitation-event').getByText('FC Nord - SV Süd').waitFor();
      await settledScreenshot(photographerPage, `calendar-${language}-2-invitation`);
      await photographerPage.getByTestId('invitation-accept').click();
      await photographerPage.getByTestId('invitation-accepted').waitFor();

      // The owner accepts the booking and tracks the accreditation to green.
      await page.reload();
      await page.getByTestId('calendar-today').click();
      await row.getByTestId(`booking-${photographerId}`).waitFor();
      await row.getByTestId(`booking-${photographerId}`).getByTestId('booking-chip').click();
      await page.getByTestId('booking-action-accept').getByText(t.accept).waitFor();
      await page.keyboard.press('Escape');
      await changeBooking(page, photographerId, 'accept', 'red');
      await changeBooking(page, photographerId, 'requested', 'yellow');
      await changeBooking(page, photographerId, 'accredited', 'green');
      await settledScreenshot(page, `calendar-${language}-3-accredited`);

      // The entry's dialog keeps every change of its bookings: who, when, from, to.
      await row.getByTestId('entry-summary').dblclick();
      const history = page.getByTestId('booking-history');
      await history.getByText(t.history).waitFor();
      await history.getByText(t.historyAnswer).waitFor();
      await settledScreenshot(page, `calendar-${language}-3b-history`);
      await page.keyboard.press('Escape');
      await page.getByTestId('event-dialog').waitFor({ state: 'detached' });

      // The event's XMP sidecar.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByTestId('entry-xmp').click(),
      ]);
      const file = await download.path();
      const xmp = await fs.readFile(file, 'utf8');
      assert.match(xmp, /<x:xmpmeta/);
      assert.match(xmp, /FC Nord - SV Süd/);
      assert.match(xmp, /Hamburg/);

      if (language === 'en') {
        // The team's zone (default Europe/Berlin) renders the same instant at New York's wall clock.
        await page.getByTestId('calendar-time-zone').click();
        await page.getByTestId('time-zone-dialog').getByRole('combobox').fill('America/New_York');
        await page.getByRole('option', { name: 'America/New_York', exact: true }).click();
        await page.getByTestId('time-zone-save').click();
        await page.getByTestId('time-zone-dialog').waitFor({ state: 'detached' });
        await page.getByTestId('calendar-time-zone').getByText('America/New_York').waitFor();
        await row.getByTestId('entry-time').getByText('11:00').waitFor();
        assert.match(await row.getByTestId('entry-time').innerText(), /^11:00 – 13:00$/);
      }

      assert.deepEqual(problems.errors, []);
    });

    it(`a photographer answers invitations in 'My bookings' (${language})`, async () => {
      const t = texts[language];
      const owner = newAccount(`Planner${language}`, `Booking Agency ${language}`);
      const photographer: Account = newAccount(`Pia${language}`, `Pia Photo ${language}`);
      const colleague: Account = newAccount(`Carl${language}`, `Carl Photo ${language}`);
      const page = await openPage(language);
      await registerVerified(suite.server, page.request, owner);
      for (const account of [photographer, colleague])
        await registerVerified(suite.server, page.request, account);
      await signIn(page, owner);
      const api = await teamApi(page, suite.server);
      for (const account of [photographer, colleague])
        await addToTeam(suite.server, page.request, api, account.email, language);
      const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
      const idOf = (account: Account) => members.find((member) => member.email === account.email)?.dbuserid;
      const [photographerId, colleagueId] = [idOf(photographer), idOf(colleague)];
      assert.ok(photographerId && colleagueId);
      const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>(
        'calendars',
      );
      const calendarId = calendars.find((calendar) => calendar.type === 'default')?.dbcalendarid;
      // Two events ahead; both photographers are invited to both (by mail, as the dialog does).
      const events = ['Nord - Süd', 'Ost - West'];
      const entryIds: number[] = [];
      for (const [i, summary] of events.entries()) {
        const [team1, team2] = summary.split(' - ');
        const { calendarentryid } = await api.post<{ calendarentryid: number }>(
          `calendar/${calendarId}/entry`,
          {
            startDate: dayFromNow(3 + i),
            startTime: '15:30',
            category: 'sport',
            subcategory: 'football',
            scene: 'Bundesliga',
            team1,
            team2,
            city: 'Hamburg',
          },
        );
        entryIds.push(calendarentryid);
      }
      await api.post('calendar/suggestentries', { userIds: [photographerId, colleagueId], entryIds });

      // The photographer's calendar page lists their own invitations, open ones with both answers.
      const own = await openPage(language);
      const problems: PageProblems = watchProblems(own);
      await signIn(own, photographer);
      await own.goto('/calendar');
      const list = own.getByTestId('my-bookings');
      await list.getByText(t.myBookings).waitFor();
      const [first, second] = entryIds.map((id) => list.getByTestId(`my-booking-${id}`));
      await first.getByText('Nord - Süd').waitFor();
      await second.getByText('Ost - West').waitFor();
      assert.equal(await list.locator('[data-testid^="my-booking-"][data-answer]').count(), 2);
      assert.equal(await first.getAttribute('data-answer'), 'open');
      assert.match(await first.innerText(), /15:30/);
      await settledScreenshot(own, `calendar-${language}-4-my-bookings`);

      // Accept the first there, reject the second.
      await first.getByTestId('my-booking-accept').getByText(t.myAccept, { exact: true }).click();
      await own.locator(`[data-testid="my-booking-${entryIds[0]}"][data-answer="accepted"]`).waitFor();
      await second.getByTestId('my-booking-reject').getByText(t.myReject, { exact: true }).click();
      await own.locator(`[data-testid="my-booking-${entryIds[1]}"][data-answer="rejected"]`).waitFor();
      // An answered invitation offers only the other answer.
      assert.equal(await first.getByTestId('my-booking-accept').count(), 0);
      assert.equal(await second.getByTestId('my-booking-reject').count(), 0);
      await settledScreenshot(own, `calendar-${language}-5-my-bookings-answered`);

      // The owner's listing has both answers, and the colleague's invitations are untouched.
      const { entries } = await api.post<{
        entries: { dbcalendarentryid: number; bookings: { userId: number; answer: string }[] }[];
      }>('calendar/entries', { calendarIds: [calendarId], startDate: new Date().toISOString().slice(0, 10) });
      const answers = entryIds.map((id) =>
        entries
          .find((entry) => entry.dbcalendarentryid === id)
          ?.bookings.map((booking) => [booking.userId, booking.answer]),
      );
      assert.deepEqual(answers, [
        [
          [photographerId, 'accepted'],
          [colleagueId, 'open'],
        ],
        [
          [photographerId, 'rejected'],
          [colleagueId, 'open'],
        ],
      ]);
      // A reload shows the stored answers, not only the page's own state.
      await own.reload();
      await own.locator(`[data-testid="my-booking-${entryIds[0]}"][data-answer="accepted"]`).waitFor();
      await own.locator(`[data-testid="my-booking-${entryIds[1]}"][data-answer="rejected"]`).waitFor();
      assert.deepEqual(problems.errors, []);
    });
  }
});
