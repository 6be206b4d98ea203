// Issue 13 "event-aware stamping" in Chromium: the owner turns the project setting on (metadata
// tab), a match of the team calendar has a photographer booked, a camera uploads a picture shot
// during it, and the protocol says which event was stamped into it, in English and German.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, repoRoot, startServer, type TestServer } from './support/server.ts';
import { rootFolderId, type TeamApi, teamApi } from './support/team-api.ts';

const emptyJpeg = path.resolve(repoRoot, '../shared/data/images/exiv2-empty.jpg');

/** A sample JPEG whose XMP gives the capture time (exif:DateTimeOriginal), as cameras with GPS-synced clocks write it. */
function shotAt(dateTimeOriginal: string): Buffer {
  const jpeg = fs.readFileSync(emptyJpeg);
  const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="${dateTimeOriginal}"/></rdf:RDF></x:xmpmeta>`;
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp)]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

describe('event-aware stamping', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let ftpPort: number;
  let projectId = 0;

  before(async () => {
    ftpPort = await freePort();
    const pasv = 41_000 + Math.floor(Math.random() * 8000);
    server = await startServer({
      FTP_PORT: String(ftpPort),
      SFTP_PORT: String(await freePort()),
      PASV_PORTS: `${pasv}-${pasv + 20}`,
    });
    browser = await launchBrowser();
    page = await (await newContext(browser, server.url)).newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    const owner = newAccount('Eva', 'Eva Event Photos');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    api = await teamApi(page, server);
    const parentFolderId = await rootFolderId(api, 'projects');
    projectId = (await api.post<{ projectId: number }>('project', { name: 'Spieltag', parentFolderId }))
      .projectId;
    const desk = (await api.post<{ projectId: number }>('project', { name: 'Photo desk', parentFolderId }))
      .projectId;
    await api.post(`project/${projectId}/destinationproject/${desk}`);
    // The match in the team calendar (15:30-17:30 in Berlin), the owner booked on it.
    const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>('calendars');
    const calendar = calendars.find((c) => c.type === 'default');
    assert.ok(calendar);
    const { calendarentryid } = await api.post<{ calendarentryid: number }>(
      `calendar/${calendar.dbcalendarid}/entry`,
      {
        startdatetime: '2026-03-14T15:30:00+01:00',
        category: 'sport',
        subcategory: 'football',
        scene: 'Bundesliga',
        team1: 'FC Nord',
        team2: 'SV Süd',
        location: 'Volksparkstadion',
        city: 'Hamburg',
        country: 'Deutschland',
      },
    );
    const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
    const me = members.find((m) => m.email === owner.email);
    assert.ok(me);
    await api.post('booking', { entryId: calendarentryid, userId: me.dbuserid, bookingState: 'accepted' });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('turns event stamping on in the metadata tab', async () => {
    await page.goto(`/project/metadata?id=${projectId}`);
    // Enabled once the setting has loaded; the label switches it (the sticky bar may cover the knob).
    const toggle = page.locator('[data-testid="event-stamping"] input:not([disabled])');
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), false, 'off by default');
    await page.getByText('Stamp the booked event').click();
    await page.locator('[data-testid="event-stamping"] input:checked').waitFor();
    for (let i = 0; i < 50; i++) {
      const setting = await api.get<{ eventStamping: boolean }>(`project/${projectId}/eventstamping`);
      if (setting.eventStamping) break;
      assert.ok(i < 49, 'the setting was saved');
      await page.waitForTimeout(100);
    }
    await settledScreenshot(page, 'event-stamp-en-1-setting');
  });

  it('shows in the protocol which event a picture shot during the match got', async () => {
    const { project } = await api.get<{ project: { ftpAccounts: { username: string; password: string }[] } }>(
      `project/${projectId}`,
    );
    const account = project.ftpAccounts[0];
    assert.ok(account);
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...account,
      filename: 'NORD_0001.JPG',
      content: shotAt('2026-03-14T16:05:00+01:00'),
    });
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...account,
      filename: 'LATE_0002.JPG',
      content: shotAt('2026-03-14T21:00:00+01:00'),
    });
    await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="job-row"]').length === 2,
      null,
      {
        timeout: 20_000,
      },
    );
    const during = page.getByTestId('job-row').filter({ hasText: 'NORD_0001.JPG' });
    await during
      .getByTestId('job-event-stamp')
      .getByText(/^Event applied: FC Nord - SV Süd \(14\/03\/2026, \d\d:\d\d\)$/)
      .waitFor({ timeout: 20_000 });
    const late = page.getByTestId('job-row').filter({ hasText: 'LATE_0002.JPG' });
    assert.equal(await late.getByTestId('job-event-stamp').count(), 0, 'after the match: no event');
    await settledScreenshot(page, 'event-stamp-en-2-protocol');
  });

  it('says the same in German', async () => {
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'de'));
    await page.reload();
    await page
      .getByTestId('job-event-stamp')
      .getByText(/^Termin eingestempelt: FC Nord - SV Süd \(14\.03\.2026, \d\d:\d\d\)$/)
      .waitFor({ timeout: 20_000 });
    await settledScreenshot(page, 'event-stamp-de-2-protocol');
    await page.goto(`/project/metadata?id=${projectId}`);
    await page.getByText('Gebuchten Termin einstempeln').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="event-stamping"] input:not([disabled])').waitFor();
    assert.equal(await page.getByTestId('event-stamping').locator('input').isChecked(), true);
    await settledScreenshot(page, 'event-stamp-de-1-setting');
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'en'));
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });
});
