// Issue 16: a failing destination is visible where people look (dashboard, project overview, a
// badge in the tree) before all tries are spent; the job log fits a 1400 px window and is live;
// deleting the FTP server ends its waiting jobs at once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { jsonHeaders, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, repoRoot, startServerWithIngest, type TestServer } from './support/server.ts';
import { rootFolderId, type TeamApi, teamApi } from './support/team-api.ts';

const sharedImages = path.resolve(repoRoot, '../shared/data/images');

/** A small JPEG-shaped file, as a camera would send it. */
const cameraFile = (bytes: number) =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.alloc(bytes - 6, 0x55),
    Buffer.from([0xff, 0xd9]),
  ]);

describe('failing destinations and the live job log', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let ftpPort: number;
  let projectId = 0;
  let serverId = 0;
  let account: { username: string; password: string };

  before(async () => {
    ({ server, ftpPort } = await startServerWithIngest());
    browser = await launchBrowser();
    const context = await newContext(browser, server.url, { viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    problems = watchProblems(page);
    const owner = newAccount('Fay', 'Fay Failing Feeds');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    api = await teamApi(page, server);
    ({ projectId } = await api.post<{ projectId: number }>('project', {
      name: 'Cup final with a rather long project name',
      parentFolderId: await rootFolderId(api, 'projects'),
    }));
    // Nothing listens on this port: every delivery fails and is tried again.
    ({ ftpserverid: serverId } = await api.post<{ ftpserverid: number }>('ftpserver', {
      name: 'Newsroom archive server (night desk)',
      host: '127.0.0.1',
      port: await freePort(),
      protocol: 'ftp',
      username: 'u',
      password: 'secret',
      parentFolderId: await rootFolderId(api, 'ftpservers'),
    }));
    await api.post(`project/${projectId}/ftpserver/${serverId}`);
    const { project } = await api.get<{ project: { ftpAccounts: { username: string; password: string }[] } }>(
      `project/${projectId}`,
    );
    account = project.ftpAccounts[0];
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the job log shows a new job within about a second and fits a 1400 px window', async () => {
    await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
    await page.getByTestId('jobs-empty').waitFor();
    // Let the first answer settle, so that the next one comes from the refresh, not the page load.
    await page.waitForTimeout(1500);
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...account,
      filename: 'IMG_20250412_CUPFINAL_GOAL_CELEBRATION_0001.JPG',
      content: cameraFile(50_000),
    });
    const uploaded = Date.now();
    await page.getByTestId('job-row').first().waitFor({ timeout: 5000 });
    const shownAfter = Date.now() - uploaded;
    // The server needs a moment to process the upload; the page itself asks every second.
    assert.ok(shownAfter < 3000, `the job appeared after ${shownAfter} ms`);
    // Its first try fails (nothing listens) and the row says so without a reload.
    // (a plain sentence; the technical text behind "Details").
    const error = page.getByTestId('job-row').getByTestId('job-error').first();
    await error.getByText('The server refused the connection', { exact: false }).waitFor({ timeout: 20_000 });
    await error.getByTestId('error-details-toggle').click();
    await error
      .getByTestId('error-details')
      .getByText(/ECONNREFUSED/)
      .waitFor();
    const table = page.getByTestId('jobs-table');
    const fits = await table.evaluate((element) => {
      const box = element.parentElement as HTMLElement;
      return {
        scroll: box.scrollWidth,
        client: box.clientWidth,
        right: element.getBoundingClientRect().right,
      };
    });
    assert.ok(fits.scroll <= fits.client, `the table needs ${fits.scroll} px of ${fits.client}`);
    assert.ok(fits.right <= 1400, 'no column is cut off');
    const name = page.getByTestId('job-file').first();
    assert.equal(await name.getAttribute('title'), 'IMG_20250412_CUPFINAL_GOAL_CELEBRATION_0001.JPG');
    await settledScreenshot(page, 'daily-30-protocol-1400');
  });

  it('the dashboard, the project overview and the tree show the failing destination', async () => {
    await page.goto('/');
    await page.getByTestId('summary-retrying').waitFor();
    assert.equal(await page.getByTestId('stat-retrying').innerText(), '1');
    await page
      .getByTestId('summary-last-error')
      .getByText(/refused the connection/)
      .waitFor();
    await page.getByTestId('tree-failing-badge').waitFor();
    await settledScreenshot(page, 'daily-31-dashboard-retrying');
    await page.goto(`/project/overview?id=${projectId}`);
    const notice = page.getByTestId('failing-destinations');
    await notice.getByText('Newsroom archive server (night desk)').waitFor();
    await notice.getByText(/refused the connection/).waitFor();
    await settledScreenshot(page, 'daily-32-overview-failing');
  });

  it('deleting the FTP server ends its waiting job at once, without Retry now; the badge goes', async () => {
    const response = await page.request.delete(`${server.url}/api/${api.team}/ftpserver/${serverId}`, {
      headers: jsonHeaders(server),
      data: {},
    });
    assert.equal(response.status(), 200);
    await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
    const row = page.getByTestId('job-row').first();
    await row.and(page.locator('[data-state="failed"]')).waitFor();
    assert.equal(await row.getByTestId('job-retry').count(), 0);
    await page.goto('/');
    await page.getByTestId('job-summary-table').waitFor();
    assert.equal(await page.getByTestId('tree-failing-badge').count(), 0);
    assert.equal(await page.getByTestId('stat-retrying').innerText(), '0');
    assert.deepEqual(problems.errors, []);
  });

  it('pictures: a thumbnail in the job log and on the dashboard, larger with caption and credit', async () => {
    const desk = await api.post<{ projectId: number }>('project', {
      name: 'Web desk',
      parentFolderId: await rootFolderId(api, 'projects'),
    });
    await api.post(`project/${projectId}/destinationproject/${desk.projectId}`);
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...account,
      filename: 'CUP_FINAL_0002.JPG',
      content: fs.readFileSync(path.join(sharedImages, 'IPTC-PhotometadataRef-Std2025.1.jpg')),
    });
    await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
    const row = page
      .getByTestId('job-row')
      .filter({ hasText: 'CUP_FINAL_0002.JPG' })
      .filter({ hasText: 'Web desk' });
    await row.and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 20_000 });
    const thumb = row.getByTestId('picture-thumb').locator('img');
    await page.waitForFunction(
      (img) => (img as HTMLImageElement | null)?.complete && (img as HTMLImageElement).naturalWidth > 0,
      await thumb.elementHandle(),
    );
    assert.equal(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth), 160);
    await row.getByTestId('picture-thumb').click();
    const dialog = page.getByTestId('picture-dialog');
    await dialog.getByText('The description aka caption (ref2025.1)').waitFor();
    await dialog.getByText('Credit Line (ref2025.1)').waitFor();
    await settledScreenshot(page, 'daily-33-picture-detail');
    await page.keyboard.press('Escape');
    await page.goto('/');
    await page.getByTestId('latest-pictures').getByTestId('picture-thumb').first().waitFor();
  });

  for (const language of ['en', 'de'] as const) {
    it(`a photographer's page for a phone: my pictures today, live (${language})`, async () => {
      const context = await newContext(browser, server.url, {
        locale: language === 'de' ? 'de-DE' : 'en-US',
        viewport: { width: 390, height: 844 },
      });
      const phone = await context.newPage();
      phone.setDefaultTimeout(15_000);
      // The same person on the phone: the session cookie of the desktop page.
      await context.addCookies(await page.context().cookies());
      await phone.goto('/pictures');
      const pictures = phone.getByTestId('my-picture');
      await pictures.first().waitFor();
      const before = await pictures.count();
      await phone
        .getByRole('heading', { name: language === 'de' ? 'Meine Bilder heute' : 'My pictures today' })
        .waitFor();
      // A new picture shows up by itself, newest first.
      await ftpUpload({
        host: '127.0.0.1',
        port: ftpPort,
        ...account,
        filename: `PHONE_${language}.JPG`,
        content: fs.readFileSync(path.join(sharedImages, 'exifr-iptc-staff-photographer-example.jpg')),
      });
      // (newest first; the copy handed on to the Web desk project is a picture of its own there).
      await pictures.first().getByText(`PHONE_${language}.JPG`).waitFor({ timeout: 5000 });
      const sent = pictures.filter({ hasText: `PHONE_${language}.JPG` }).filter({ hasText: 'Cup final' });
      await sent
        .locator('[data-tone="delivered"]')
        .getByText(language === 'de' ? 'Ausgeliefert' : 'Delivered')
        .waitFor({ timeout: 20_000 });
      assert.equal(await pictures.count(), before + 2);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `the page is ${width} px wide on a 390 px phone`);
      await settledScreenshot(phone, `daily-34-my-pictures-phone-${language}`);
      await context.close();
    });
  }
});
