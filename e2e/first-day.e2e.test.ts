// Issue 16, "done when": a new agency finds its way from sign-up to a first delivered picture
// without help, in English and in German. Sign up in the browser, verify, sign in; the
// dashboard's first steps lead to the project, its camera settings and the first FTP server;
// the server becomes the project's destination; a camera sends a picture and it is delivered.
// The destination is PhotoRelay's own FTP ingest (another project's account): a real FTP server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { newAccount, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { repoRoot, startServerWithIngest, type TestServer } from './support/server.ts';
import { rootFolderId, teamApi } from './support/team-api.ts';

const texts = {
  en: { steps: 'Your first delivered picture in four steps', delivered: 'succeeded', pictures: 'Delivered' },
  de: {
    steps: 'Ihr erstes ausgeliefertes Bild in vier Schritten',
    delivered: 'erfolgreich',
    pictures: 'Ausgeliefert',
  },
} as const;

describe('the first day of a new agency', () => {
  let server: TestServer;
  let browser: Browser;
  let ftpPort: number;

  before(async () => {
    ({ server, ftpPort } = await startServerWithIngest());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const language of ['en', 'de'] as const) {
    it(`signs up, sets up a project and a server, and delivers the first picture (${language})`, async () => {
      const t = texts[language];
      const context = await newContext(browser, server.url, {
        locale: language === 'de' ? 'de-DE' : 'en-US',
      });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const problems: PageProblems = watchProblems(page);
      const owner = newAccount(`First${language}`, `First Day Photos ${language}`);

      // Sign up in the browser and verify the address from the mail.
      await page.goto('/signup');
      await page.getByTestId('signup-firstName').fill(owner.firstName);
      await page.getByTestId('signup-lastName').fill(owner.lastName);
      await page.getByTestId('signup-companyName').fill(owner.company);
      await page.getByTestId('signup-email').fill(owner.email);
      await page.getByTestId('signup-password').fill(owner.password);
      await page.getByTestId('signup-repeat').fill(owner.password);
      await page.getByTestId('signup-submit').click();
      await page.getByTestId('signup-sent').waitFor();
      const link = new URL(await server.linkFromMail(owner.email, /verify|bestätigen/i));
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByTestId('verify-success').waitFor();
      await signIn(page, owner);

      // The empty dashboard leads the way: 1. a project.
      const steps = page.getByTestId('first-steps');
      await steps.getByText(t.steps).waitFor();
      await settledScreenshot(page, `daily-40-first-steps-${language}`);
      await page.getByTestId('first-step-project-action').click();
      await page.getByTestId('new-project-name').fill('Matchday');
      await page.getByTestId('new-project-submit').click();
      await page.waitForURL(/\/project\/overview\?id=\d+/);
      const projectId = Number(new URL(page.url()).searchParams.get('id'));

      // 2. The camera settings, as the photographer types them in.
      const access = page.getByTestId('ftp-access');
      const username = (await access.getByTestId('ftp-user').textContent()) ?? '';
      await access.getByTestId('ftp-password-reveal').click();
      const password = (await access.getByTestId('ftp-password').getAttribute('data-value')) ?? '';
      assert.ok(username && password);
      await access.getByTestId('port-ftp').getByText(String(ftpPort)).waitFor();

      // 3. The first FTP server: here another project's FTP account on the same PhotoRelay.
      const api = await teamApi(page, server);
      const archive = await api.post<{ projectId: number }>('project', {
        name: 'Newsroom inbox',
        parentFolderId: await rootFolderId(api, 'projects'),
      });
      const { project } = await api.get<{
        project: { ftpAccounts: { username: string; password: string }[] };
      }>(`project/${archive.projectId}`);
      await page.goto('/');
      await page.getByTestId('first-step-server-action').click();
      await page.getByTestId('ftpserver-form').waitFor();
      await page.getByTestId('ftpserver-name').fill('Newsroom');
      await page.getByTestId('ftpserver-host').fill('127.0.0.1');
      await page.getByTestId('ftpserver-port').fill(String(ftpPort));
      await page.getByTestId('ftpserver-username').fill(project.ftpAccounts[0].username);
      await page.getByTestId('ftpserver-password').fill(project.ftpAccounts[0].password);
      await page.getByTestId('ftpserver-save').click();
      await page.waitForURL('**/team/ftpservers');

      // 4. The server becomes the project's destination.
      await page.goto(`/project/destinations?id=${projectId}`);
      await page.getByTestId('add-ftpserver-field').click();
      await page.getByTestId('add-ftpserver-option-Newsroom').click();
      await page.getByTestId('add-ftpserver-submit').click();
      await page.getByTestId('destination-server-Newsroom').waitFor();

      // The camera sends its first picture; the job log shows it delivered, live.
      await page.goto(`/project/protocol?id=${projectId}&view=deliveries`);
      await ftpUpload({
        host: '127.0.0.1',
        port: ftpPort,
        username,
        password,
        filename: `FIRST_${language}.JPG`,
        content: fs.readFileSync(path.resolve(repoRoot, '../shared/data/images/exiv2-Reagan.jpg')),
      });
      const row = page.getByTestId('job-row').filter({ hasText: `FIRST_${language}.JPG` });
      await row.and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 30_000 });
      await row.getByText(t.delivered, { exact: true }).waitFor();
      await settledScreenshot(page, `daily-41-first-delivered-${language}`);

      // The photographer's page says so too.
      await page.goto('/pictures');
      await page
        .getByTestId('my-picture')
        .filter({ hasText: `FIRST_${language}.JPG` })
        .locator('[data-tone="delivered"]')
        .getByText(t.pictures)
        .waitFor();
      assert.deepEqual(problems.errors, []);
      await context.close();
    });
  }
});
