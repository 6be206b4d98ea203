// Issue 27/28 follow-up: what a professional notices. A project delivers to destinations with long
// names (a real agency's are); on a 390 px phone the picture log shows every destination's chip in
// full (wrapped inside the card, no ellipsis: a tooltip does not help on a phone), and at 1366 px in
// German the calendar table and the 'Every delivery' table fit their card without scrolling inside
// it. Screens at 1366 px and 390 px in English and German, axe finds nothing serious.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { type Account, addToTeam, newAccount, registerVerified } from './support/accounts.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, repoRoot } from './support/server.ts';
import { browserSuite, signUpOwner } from './support/suite.ts';
import { addFtpDestination, newProject, newTeamEvent, rootFolderId } from './support/team-api.ts';

const image = fs.readFileSync(path.resolve(repoRoot, '../shared/data/images/exiftool-IPTC.jpg'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const destinations = [
  'Deutsche Presse-Agentur Bildfunk Hauptredaktion Hamburg',
  'Sport-Informations-Dienst Bildredaktion Köln-Nord',
];

/** dd.mm.yyyy `days` from today (the event dialog's format). */
function dayFromNow(days: number) {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
}

/** How far `selector`'s box scrolls sideways inside itself (0: everything fits). */
const innerOverflow = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);

describe('long names fit (issue 27/28 follow-up)', () => {
  const suite = browserSuite({ ingest: true });
  let owner: Page;
  let projectId = 0;

  before(async () => {
    owner = await suite.openPage();
    const { server } = suite;
    const photographers: Account[] = [newAccount('Maximiliane'), newAccount('Bartholomäus')];
    for (const account of photographers) await registerVerified(server, owner.request, account);
    const { api } = await signUpOwner(server, owner, 'Lena', 'Lena Langname Bildagentur');

    // Two destinations where nothing listens: every delivery waits for its next try.
    const project = await newProject(api, 'Bundesliga Spieltag', await rootFolderId(api, 'projects'));
    projectId = project.id;
    for (const name of destinations)
      await addFtpDestination(api, projectId, {
        name,
        port: await freePort(),
        username: 'nobody',
        password: 'nobody-pw',
      });
    for (const filename of ['TOR_0001.JPG', 'TOR_0002.JPG'])
      await ftpUpload({
        host: '127.0.0.1',
        port: suite.ftpPort,
        ...project.account,
        filename,
        content: image,
      });
    for (let i = 0; ; i++) {
      const { pictures } = await api.post<{
        pictures: Array<{ deliveries: Array<{ state: string; trynumber: number }> }>;
      }>('pictures/200/0', { projectid: projectId });
      const waiting = pictures.flatMap((p) => p.deliveries).filter((d) => d.trynumber > 0);
      if (pictures.length === 2 && waiting.length === 4) break;
      if (i > 300) throw new Error('the deliveries did not reach their retry');
      await sleep(300);
    }

    // The calendar: two events with long texts, both photographers invited, one booked.
    for (const account of photographers) await addToTeam(server, owner.request, api, account.email);
    const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
    const userIds = photographers.map((a) => members.find((m) => m.email === a.email)?.dbuserid ?? 0);
    const game = (day: number, team1: string, team2: string) =>
      newTeamEvent(api, {
        startDate: dayFromNow(day),
        startTime: '15:30',
        category: 'sport',
        subcategory: 'football',
        scene: 'Bundesliga, 14. Spieltag',
        team1,
        team2,
        location: 'Borussia-Park, Hennes-Weisweiler-Allee 1',
        city: 'Mönchengladbach',
        country: 'Deutschland',
      });
    const entryIds = [
      await game(2, 'Borussia Mönchengladbach', 'Eintracht Frankfurt'),
      await game(3, '1. FC Heidenheim 1846', 'Sportvereinigung Greuther Fürth'),
    ];
    await api.post('calendar/suggestentries', { userIds, entryIds });
    await api.post('booking', { entryId: entryIds[0], userId: userIds[0], bookingState: 'accepted' });
  });

  const open = (language: 'en' | 'de', width: number) =>
    suite.openPage({ language, viewport: { width, height: 860 }, sessionOf: owner });

  const fits = async (page: Page, name: string, width: number) => {
    await settledScreenshot(page, name);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= width, `${name}: the page is ${scrollWidth} px wide at ${width} px`);
    assert.deepEqual(await seriousA11yProblems(page), [], `${name}: axe`);
  };

  for (const language of ['en', 'de'] as const)
    for (const width of [390, 1366])
      it(`the picture log shows long destination names in full (${language}, ${width} px)`, async () => {
        const page = await open(language, width);
        await page.goto(`/project/protocol?id=${projectId}`);
        const row = page.getByTestId('picture-row').first();
        await row.getByTestId('delivery-chip').first().waitFor();
        const chips = await row.getByTestId('delivery-chip').evaluateAll((elements) =>
          elements.map((chip) => {
            const label = chip.querySelector('.MuiChip-label') as HTMLElement;
            const card = chip.closest('[data-testid="picture-row"]') as HTMLElement;
            return {
              text: label.textContent ?? '',
              cut: label.scrollWidth > label.clientWidth,
              outside: chip.getBoundingClientRect().right > card.getBoundingClientRect().right + 0.5,
            };
          }),
        );
        assert.equal(chips.length, 2);
        for (const chip of chips) {
          assert.ok(
            destinations.some((name) => chip.text.startsWith(name)),
            chip.text,
          );
          assert.equal(chip.cut, false, `"${chip.text}" is cut`);
          assert.equal(chip.outside, false, `"${chip.text}" leaves its card`);
        }
        await fits(page, `long-names-picture-log-${width}-${language}`, width);
        await page.context().close();
      });

  for (const language of ['en', 'de'] as const)
    for (const width of [1366, 390])
      it(`'Every delivery' and the calendar table fit without inner scrolling (${language}, ${width} px)`, async () => {
        const page = await open(language, width);
        await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
        await page.getByTestId('job-row').first().waitFor();
        await settledScreenshot(page, `long-names-deliveries-${width}-${language}`);
        assert.equal(await innerOverflow(page, '.MuiTableContainer-root:has([data-testid="jobs-table"])'), 0);
        await fits(page, `long-names-deliveries-${width}-${language}`, width);

        await page.goto('/calendar');
        await page.getByTestId('calendar-table').locator('text=Mönchengladbach').first().waitFor();
        await settledScreenshot(page, `long-names-calendar-${width}-${language}`);
        if (width > 600) assert.equal(await innerOverflow(page, ':has(> [data-testid="calendar-table"])'), 0);
        await fits(page, `long-names-calendar-${width}-${language}`, width);
        await page.context().close();
      });
});
