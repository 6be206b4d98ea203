// Calendar table in Chromium (issue 12: "200 rows render in Chromium in under 300 ms"): a team
// with two months of 200 events each (2-3 bookings per event, some accredited, some flags), the
// owner's calendar page switching between the two months. Per switch it measures, inside the
// page, the time from the click to the frame after the 200th row is in the DOM, and the part of
// it after the listing's answer arrived (the render). Revisits of a month render from the query
// cache (the refetch runs behind). The real server and the built web app, Debian's Chromium.
//
//   npx tsx bench/calendar/render.ts [--runs 10] [--rows 200]
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { addToTeam, newAccount, registerVerified, signIn } from '../../e2e/support/accounts.ts';
import { launchBrowser, newContext } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server.ts';
import { teamApi } from '../../e2e/support/team-api.ts';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, rows: { type: 'string', default: '200' } },
});
const runs = Number(opts.runs);
const rows = Number(opts.rows);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const summary = (label: string, values: number[]) =>
  console.log(
    `${label.padEnd(44)} median ${fmt(percentile(values, 50)).padStart(6)} ms  p95 ${fmt(percentile(values, 95)).padStart(6)} ms  max ${fmt(Math.max(...values)).padStart(6)} ms  (n=${values.length})`,
  );

/** Clicks the month button and measures in the page until the frame after `rows` rows show. */
async function switchMonth(page: Page, direction: 'next' | 'previous', expectedFirstDay: string) {
  return page.evaluate(
    async ({ direction, rows, expectedFirstDay }) => {
      const button = document.querySelector<HTMLButtonElement>(`[data-testid="calendar-${direction}"]`);
      if (!button) throw new Error('no month button');
      performance.clearResourceTimings();
      const started = performance.now();
      button.click();
      for (;;) {
        // No named helpers in here: tsx's keepNames would reference __name, unknown in the page.
        await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        const shown = document.querySelectorAll('[data-testid^="entry-row-"]').length;
        const first = document.querySelector('[data-testid^="calendar-day-"]')?.getAttribute('data-testid');
        if (shown === rows && first === `calendar-day-${expectedFirstDay}`) break;
        if (performance.now() - started > 10_000) throw new Error(`only ${shown} rows after 10 s`);
      }
      // The frame after: the rows are laid out and painted.
      const done = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      const listing = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('/calendar/entries'))
        .at(0) as PerformanceResourceTiming | undefined;
      const answered = listing ? listing.responseEnd : started;
      return {
        total: done - started,
        render: done - Math.max(answered, started),
        fetch: listing ? listing.responseEnd - listing.startTime : 0,
        fetched: Boolean(listing),
      };
    },
    { direction, rows, expectedFirstDay },
  );
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const context = await newContext(browser, server.url, { viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const owner = newAccount('Bench');
  await registerVerified(server, page.request, owner);
  // Photographers to book: members of the Photographer group (an account joins by accepting).
  const accounts = Array.from({ length: 6 }, (_, i) => newAccount(`Photographer${i}`));
  for (const account of accounts) await registerVerified(server, page.request, account);
  await signIn(page, owner);
  const api = await teamApi(page, server);
  for (const account of accounts) await addToTeam(server, page.request, api, account.email);
  const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
  const photographers = members
    .filter((member) => accounts.some((account) => account.email === member.email))
    .map((member) => member.dbuserid);
  const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>('calendars');
  const calendarId = calendars.find((calendar) => calendar.type === 'default')?.dbcalendarid;
  if (!calendarId) throw new Error('no default calendar');

  const seeded = Date.now();
  const months = [
    { first: '2026-03-01', days: 31, month: '03' },
    { first: '2026-04-01', days: 30, month: '04' },
  ];
  let created = 0;
  for (const { days, month } of months) {
    for (let i = 0; i < rows; i++) {
      const day = String(1 + Math.floor((i * days) / rows)).padStart(2, '0');
      const hour = String(8 + (i % 12)).padStart(2, '0');
      const { calendarentryid } = await api.post<{ calendarentryid: number }>(
        `calendar/${calendarId}/entry`,
        {
          startDate: `${day}.${month}.2026`,
          startTime: `${hour}:${i % 2 ? '30' : '00'}`,
          category: 'sport',
          subcategory: 'football',
          scene: 'Bundesliga',
          team1: `Heim ${i}`,
          team2: `Gast ${i}`,
          summary: `Heim ${i} - Gast ${i}`,
          location: 'Stadion',
          city: 'Hamburg',
          country: 'Deutschland',
          urgency: 1 + (i % 8),
          flags: i % 7 === 0 ? 0b101 : 0,
        },
      );
      for (let b = 0; b < 2 + (i % 2); b++) {
        const userId = photographers[(i + b) % photographers.length];
        await api.post('booking', { entryId: calendarentryid, userId, bookingState: 'accepted' });
        if (b === 0)
          await api.post('booking', {
            entryId: calendarentryid,
            userId,
            accreditation: i % 3 ? 'requested' : 'accredited',
          });
      }
      created++;
    }
  }
  console.log(`seeded ${created} events with bookings in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);

  await page.goto(`/calendar?id=${calendarId}&view=month&month=${months[0].first.slice(0, 7)}`);
  await page
    .locator('[data-testid^="entry-row-"]')
    .nth(rows - 1)
    .waitFor();
  const firstVisit: { total: number; render: number; fetch: number }[] = [];
  const cached: { total: number; render: number; fetch: number }[] = [];
  // Month 2 the first time (answer from the server), then back and forth from the cache.
  await page.evaluate(() => window.scrollTo(0, 0));
  const first = await switchMonth(page, 'next', months[1].first);
  firstVisit.push(first);
  for (let i = 0; i < runs; i++) {
    cached.push(await switchMonth(page, 'previous', months[0].first));
    cached.push(await switchMonth(page, 'next', months[1].first));
  }
  // First visits again: a fresh page per run so no month is cached.
  for (let i = 0; i < runs - 1; i++) {
    await page.goto(`/calendar?id=${calendarId}&view=month&month=${months[0].first.slice(0, 7)}`);
    await page
      .locator('[data-testid^="entry-row-"]')
      .nth(rows - 1)
      .waitFor();
    firstVisit.push(await switchMonth(page, 'next', months[1].first));
  }

  // Baseline in the same page and run: the same number of rows of plain text cells built with
  // the DOM API (no React), to read the figures against this machine's speed at the moment.
  const baseline: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(
      await page.evaluate(async (rows) => {
        const started = performance.now();
        const table = document.createElement('table');
        for (let r = 0; r < rows; r++) {
          const tr = table.insertRow();
          for (let c = 0; c < 6; c++) tr.insertCell().textContent = `cell ${r}.${c} Heim - Gast 17:00`;
        }
        document.body.append(table);
        await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        const done = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        table.remove();
        return done - started;
      }, rows),
    );
  }

  console.log(`\n${rows} rows (owner: bookings, flags and row icons), Chromium ${browser.version()}`);
  summary(
    'month from the server: click -> painted',
    firstVisit.map((m) => m.total),
  );
  summary(
    'month from the server: answer -> painted',
    firstVisit.map((m) => m.render),
  );
  summary(
    'month from the server: the request alone',
    firstVisit.map((m) => m.fetch),
  );
  summary(
    'month from the cache: click -> painted',
    cached.map((m) => m.total),
  );
  summary('baseline: plain DOM table, no React', baseline);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
