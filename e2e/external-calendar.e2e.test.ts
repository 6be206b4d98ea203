// Issue 13 in Chromium: the owner adds a league's feed by URL (a failure shows the server's text
// under the field), sees its matches, creates a team event from one and books a photographer on
// it; the feed moves that match; a refresh updates the external entry and marks the team copy
// as changed while its booking stays.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { addToTeam, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { teamApi } from './support/team-api.ts';

const stamp = (d: Date) => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
const inDays = (days: number, hourUtc: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d;
};

function leagueFeed(kickoffHour: number) {
  const match = (uid: string, start: Date, summary: string) =>
    `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${stamp(start)}\r\nDURATION:PT2H\r\nSUMMARY:${summary}\r\nLOCATION:Volksparkstadion\r\nEND:VEVENT\r\n`;
  return [
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//e2e//league//EN\r\nX-WR-CALNAME:Nordliga\r\n',
    match('m1@nordliga', inDays(2, kickoffHour), 'FC Nord - SV Süd'),
    match('m2@nordliga', inDays(4, 14), 'SV Süd - TSV Ost'),
    'END:VCALENDAR\r\n',
  ].join('');
}

describe('external calendar journey', () => {
  let server: TestServer;
  let browser: Browser;
  let feedServer: http.Server;
  let feedUrl = '';
  let feed = leagueFeed(13);
  const contexts: BrowserContext[] = [];

  before(async () => {
    feedServer = http.createServer((req, res) => {
      if (req.url !== '/nordliga.ics') return void res.writeHead(404).end('not here');
      res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed);
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/nordliga.ics`;
    // The feed runs on loopback, which the outbound guard refuses by default.
    server = await startServer({ ALLOW_PRIVATE_NETWORKS: '1' });
    browser = await launchBrowser();
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    feedServer?.closeAllConnections();
    feedServer?.close();
  });

  it('subscribes to a feed, creates a team event from it and keeps its booking across a refresh', async () => {
    const owner = newAccount('Olga', 'Nordliga Agency');
    const photographer = newAccount('Pit', 'Pit Photo');
    const context = await newContext(browser, server.url, { locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: PageProblems = watchProblems(page);
    await registerVerified(server, page.request, owner);
    await registerVerified(server, page.request, photographer);
    await signIn(page, owner);
    const api = await teamApi(page, server);
    await addToTeam(server, page.request, api, photographer.email);
    const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
    const photographerId = members.find((m) => m.email === photographer.email)?.dbuserid;
    assert.ok(photographerId);

    await page.goto('/calendar');
    await page.getByTestId('calendar-page').waitFor();
    await page.getByTestId('calendar-today').click();

    // A wrong address: the server's reason under the URL field.
    await page.getByTestId('calendar-add-external').click();
    const url = page.getByTestId('external-calendar-url');
    await url.fill(feedUrl.replace('nordliga', 'missing'));
    await page.getByTestId('external-calendar-submit').click();
    await page
      .getByTestId('external-calendar-dialog')
      .getByText(/answered HTTP 404/)
      .waitFor();
    await url.fill(feedUrl);
    await page.getByTestId('external-calendar-submit').click();
    await page.getByTestId('external-calendar-dialog').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid^="entry-row-"]', { hasText: 'FC Nord - SV Süd' });
    await row.first().waitFor();
    await page.locator('[data-testid^="entry-row-"]', { hasText: 'SV Süd - TSV Ost' }).waitFor();
    const externalId = Number((await row.first().getAttribute('data-testid'))?.replace('entry-row-', ''));

    // Create the team's event from the external match, and book the photographer on it. The
    // row's icon opens the event dialog prefilled (issue 27 item 8), not a copy at once.
    await row.first().getByTestId('entry-create').click();
    const dialog = page.getByTestId('event-dialog');
    await dialog.getByText('New team event from an external entry').waitFor();
    assert.equal(await page.getByTestId('event-summary').inputValue(), 'FC Nord - SV Süd');
    assert.equal(await page.getByTestId('event-location').inputValue(), 'Volksparkstadion');
    const kickoff = new Date(inDays(2, 13));
    const berlin = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(kickoff);
    assert.equal(await page.getByTestId('event-time').inputValue(), berlin);
    // Scene is required and explained; the match gets one before it is saved.
    await dialog.getByText(/What is photographed/).waitFor();
    await page.getByTestId('event-scene').fill('Regionalliga');
    await page.getByTestId('event-save').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid^="entry-row-"]', { hasText: 'FC Nord - SV Süd' }).nth(1).waitFor();
    const listed = await api.post<{ entries: { dbcalendarentryid: number; sourceEntryId: number | null }[] }>(
      'calendar/entries',
      {
        calendarIds: (await api.get<{ calendars: { dbcalendarid: number }[] }>('calendars')).calendars.map(
          (c) => c.dbcalendarid,
        ),
        startDate: inDays(0, 0).toISOString().slice(0, 10),
      },
    );
    const teamCopy = listed.entries.find((e) => e.sourceEntryId === externalId);
    assert.ok(teamCopy, 'the team copy remembers its source');
    await api.post('booking', {
      entryId: teamCopy.dbcalendarentryid,
      userId: photographerId,
      bookingState: 'accepted',
    });

    // The league moves the match; refresh by hand.
    feed = leagueFeed(16);
    const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>('calendars');
    const external = calendars.find((c) => c.type !== 'default');
    assert.ok(external);
    await page
      .getByTestId(`calendar-item-${external.dbcalendarid}`)
      .getByRole('button', { name: 'Refresh' })
      .click();
    // The snackbar says what the refresh changed and when (issue 27 item 10).
    await page.getByText(/^Refreshed at \d\d:\d\d: \d+ new, [1-9]\d* changed, \d+ removed\.$/).waitFor();
    // The calendar list says it too, with when the refresh last ran.
    await page
      .getByTestId(`calendar-item-${external.dbcalendarid}`)
      .getByTestId('calendar-last-run')
      .getByText(/^0 new, [1-9]\d* changed, 0 removed · last run \d\d:\d\d$/)
      .waitFor();
    for (let i = 0; i < 100; i++) {
      const entry = await api.get<{
        entry: { sourceStatus: string | null; bookings: { userId: number; bookingState: string }[] };
      }>(`calendarentry/${teamCopy.dbcalendarentryid}`);
      if (entry.entry.sourceStatus === 'changed') {
        assert.deepEqual(
          entry.entry.bookings.map((b) => [b.userId, b.bookingState]),
          [[photographerId, 'accepted']],
        );
        break;
      }
      assert.ok(i < 99, 'the copy was not marked');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The refresh reloads the table: the team's copy shows that its source changed.
    await page
      .getByTestId(`entry-row-${teamCopy.dbcalendarentryid}`)
      .locator('[data-testid="entry-source-status"][data-status="changed"]')
      .waitFor();
    const moved = await api.get<{ entry: { startdatetime: string } }>(`calendarentry/${externalId}`);
    assert.equal(new Date(moved.entry.startdatetime).toISOString(), inDays(2, 16).toISOString());
    assert.deepEqual(problems.errors, []);
  });
});
