// A project from creation to delivery (spec §2 'Project tabs', 'FTP server page', §4 'Job
// state', §5): its FTP credentials, an FTP server whose test fails for a host that cannot be
// reached, both as destinations, a camera upload, the protocol and the connection log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, startServer, type TestServer } from './support/server.ts';
import { openTreeMenu, rootFolderId, type TeamApi, teamApi, treeItem } from './support/team-api.ts';

/** A small JPEG-shaped file, as a camera would send it. */
function cameraFile(bytes: number): Buffer {
  const head = Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
  ]);
  const body = Buffer.alloc(bytes - head.length - 2, 0x55);
  return Buffer.concat([head, body, Buffer.from([0xff, 0xd9])]);
}

describe('project delivery', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let ftpPort: number;
  let sftpPort: number;
  let projectId = 0;
  const projectUrl = (tab: string) => `/project/${tab}?id=${projectId}`;

  before(async () => {
    ftpPort = await freePort();
    sftpPort = await freePort();
    const pasv = 41_000 + Math.floor(Math.random() * 8000);
    server = await startServer({
      FTP_PORT: String(ftpPort),
      SFTP_PORT: String(sftpPort),
      PASV_PORTS: `${pasv}-${pasv + 20}`,
    });
    browser = await launchBrowser();
    const context = await newContext(browser, server.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    const owner = newAccount('Paul', 'Paul Pitchside Photos');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    api = await teamApi(page, server);
    // A second project to hand files on to (creating projects is the tree test's subject).
    await api.post('project', { name: 'Photo desk', parentFolderId: await rootFolderId(api, 'projects') });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates a project and shows the FTP account for the camera', async () => {
    await page.getByTestId('folder-tree').waitFor();
    await openTreeMenu(page, 'Projects');
    await page.getByTestId('tree-menu-newProject').click();
    await page.getByTestId('new-project-name').fill('Bundesliga live');
    await page.getByTestId('new-project-submit').click();
    await page.waitForURL(/\/project\/overview\?id=\d+/);
    projectId = Number(new URL(page.url()).searchParams.get('id'));
    await page.getByRole('heading', { name: 'Bundesliga live' }).waitFor();

    const access = page.getByTestId('ftp-access');
    assert.equal(await access.getByTestId('ftp-host').textContent(), '127.0.0.1');
    const username = (await access.getByTestId('ftp-user').textContent()) ?? '';
    assert.ok(username.length > 3);
    // The password is hidden until asked for.
    assert.match((await access.getByTestId('ftp-password').textContent()) ?? '', /^•+$/);
    await access.getByTestId('ftp-password-reveal').click();
    const password = (await access.getByTestId('ftp-password').getAttribute('data-value')) ?? '';
    assert.ok(password.length >= 8);
    const { project } = await api.get<{ project: { ftpAccounts: { username: string; password: string }[] } }>(
      `project/${projectId}`,
    );
    assert.deepEqual(project.ftpAccounts[0], { username, password });
    // Ports a photographer types into the camera.
    await access.getByTestId('port-ftp').getByText(String(ftpPort)).waitFor();
    await access.getByTestId('port-sftp').getByText(String(sftpPort)).waitFor();
    // Copy buttons.
    await access.getByTestId('ftp-user-copy').click();
    await page.getByText('Copied to the clipboard').first().waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), username);
    await access.getByTestId('ftp-password-copy').click();
    // The clipboard write is asynchronous: give it a moment before reading it back.
    let copied = '';
    for (let i = 0; i < 40 && copied !== password; i++) {
      copied = await page.evaluate(() => navigator.clipboard.readText());
      if (copied !== password) await page.waitForTimeout(50);
    }
    assert.equal(copied, password);
    await page.getByTestId('log-empty').waitFor();
    await access.getByTestId('ftp-password-reveal').click();
  });

  it('validates the FTP server form and shows the failed test (spec §5, §8)', async () => {
    await openTreeMenu(page, 'FTP servers');
    await page.getByTestId('tree-menu-newFtpServer').click();
    await page.getByTestId('ftpserver-form').waitFor();
    const test = page.getByTestId('ftpserver-test');
    const save = page.getByTestId('ftpserver-save');
    assert.ok(await test.isDisabled());
    assert.ok(await save.isDisabled());
    assert.equal(await page.getByTestId('ftpserver-protocol').inputValue(), 'ftp', 'ftp by default');
    assert.equal(
      await page.getByTestId('ftpserver-maxconnections').inputValue(),
      '4',
      '4 connections by default',
    );

    await page.getByTestId('ftpserver-name').fill('Client archive');
    await page.getByTestId('ftpserver-host').fill('127.0.0.1');
    await page.getByTestId('ftpserver-username').fill('delivery');
    await page.getByTestId('ftpserver-password').fill('not-the-real-one');
    assert.ok(await save.isEnabled());
    await page.getByTestId('ftpserver-port').fill('70000');
    await page.getByText('Port must be between 1 and 65535').waitFor();
    assert.ok(await test.isDisabled());
    assert.ok(await save.isDisabled());
    await page.getByTestId('ftpserver-port').fill('21x');
    await page.getByText('Port must be between 1 and 65535').waitFor();
    await page.getByTestId('ftpserver-port').fill(String(await freePort()));
    await page.getByTestId('ftpserver-path').fill('/incoming');
    await page.getByTestId('ftpserver-protocol-select').click();
    await page.getByTestId('protocol-ftps').click();
    assert.equal(await page.getByTestId('ftpserver-protocol').inputValue(), 'ftps');
    await settledScreenshot(page, '70-ftpserver-new');

    await test.click();
    const warning = page.getByTestId('ftpserver-test-warning');
    await warning.waitFor({ timeout: 30_000 });
    assert.match((await warning.textContent()) ?? '', /127\.0\.0\.1/);
    assert.doesNotMatch((await warning.textContent()) ?? '', /Success!!!/);
    await settledScreenshot(page, '71-ftpserver-test-failed');

    // Issue 28: saving after a failed test asks first.
    await save.click();
    await page.getByTestId('ftpserver-save-failed-test').getByText('The last test failed').waitFor();
    // It quotes what the test said.
    await page
      .getByTestId('ftpserver-save-failed-test')
      .getByText(/The test said: .*127\.0\.0\.1/)
      .waitFor();
    await page.getByTestId('ftpserver-save-failed-test-confirm').click();
    await page.waitForURL('**/team/ftpservers');
    const row = page.getByTestId('ftpserver-row-Client archive');
    await row.getByText('FTPS').waitFor();
    await row.getByText('/incoming').waitFor();
    await settledScreenshot(page, '72-ftpservers-list');
  });

  it('keeps the stored password when the field stays empty', async () => {
    await page.getByTestId('ftpserver-row-Client archive').click();
    await page.waitForURL(/\/ftpserver\?id=\d+/);
    const password = page.getByTestId('ftpserver-password');
    assert.equal(await password.inputValue(), '');
    assert.equal(await password.getAttribute('placeholder'), 'A password is set');
    await page.getByTestId('ftpserver-maxconnections').fill('2');
    assert.ok(await page.getByTestId('ftpserver-save').isEnabled());
    await settledScreenshot(page, '73-ftpserver-edit');
    await page.getByTestId('ftpserver-save').click();
    await page.waitForURL('**/team/ftpservers');
    const { ftpservers } = await api.get<{
      ftpservers: { name: string; passwordSet: boolean; maxConnections: number }[];
    }>('ftpservers');
    const stored = ftpservers.find((entry) => entry.name === 'Client archive');
    assert.equal(stored?.passwordSet, true);
    assert.equal(stored?.maxConnections, 2);
  });

  it('adds the FTP server and another project as destinations', async () => {
    await page.goto(projectUrl('destinations'));
    const servers = page.getByTestId('destination-ftpservers');
    await servers.getByTestId('destination-ftpservers-empty').waitFor();
    await page.getByTestId('add-ftpserver-field').click();
    await page.getByTestId('add-ftpserver-option-Client archive').click();
    await page.getByTestId('add-ftpserver-submit').click();
    const row = servers.getByTestId('destination-server-Client archive');
    await row.waitFor();

    // The path saves on Enter and falls back to the server's own path when emptied.
    const path = row.getByTestId('destination-path');
    assert.equal(await path.getAttribute('placeholder'), '/incoming');
    await path.fill('/bundesliga');
    await path.press('Enter');
    await expectProject((p) => p.ftpServers[0]?.path === '/bundesliga');
    // The switch turns the destination off and on again.
    await row.getByTestId('destination-enabled').locator('input').uncheck();
    await expectProject((p) => p.ftpServers[0]?.enabled === false);
    await row.getByTestId('destination-enabled').locator('input').check();
    await expectProject((p) => p.ftpServers[0]?.enabled === true);

    await page.getByTestId('add-project-field').click();
    await page.getByTestId('add-project-option-Photo desk').click();
    await page.getByTestId('add-project-submit').click();
    await page.getByTestId('destination-project-Photo desk').waitFor();
    await page.reload();
    assert.equal(await page.getByTestId('destination-path').inputValue(), '/bundesliga');
    await settledScreenshot(page, '74-project-destinations');
  });

  it('delivers a camera upload and shows the jobs in the protocol (spec §4)', async () => {
    const { project } = await api.get<{ project: { ftpAccounts: { username: string; password: string }[] } }>(
      `project/${projectId}`,
    );
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...project.ftpAccounts[0],
      filename: 'DSC_0042.JPG',
      content: cameraFile(180_000),
    });

    await page.goto(`${projectUrl('protocol')}&view=deliveries`);
    await page.getByTestId('jobs-table').waitFor({ timeout: 20_000 });
    const rows = page.getByTestId('job-row');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="job-row"]').length === 2);
    // The project destination succeeds; the FTP server cannot be reached (a private address).
    const succeeded = page.locator('[data-testid="job-row"][data-state="succeeded"]');
    await succeeded.waitFor({ timeout: 20_000 });
    await succeeded.getByText('succeeded').waitFor();
    await succeeded.getByText('Photo desk').waitFor();
    const toServer = rows.filter({ hasText: 'Client archive' });
    await toServer
      .getByText(/last try failed \(|failed/)
      .first()
      .waitFor({ timeout: 20_000 });
    await toServer.getByText('DSC_0042.JPG').waitFor();
    await toServer.getByText('176 KB').waitFor();
    const state = (await toServer.getByTestId('job-state').textContent()) ?? '';
    assert.match(state, /starting (in \d+ seconds|now)|failed/);
    await page.getByTestId('jobs-live').waitFor();
    await settledScreenshot(page, '75-project-protocol');

    // 'Retry now' for the job that waits for its next try.
    await toServer.getByTestId('job-retry').click();
    await page.getByText('The job will be tried again right away.').waitFor();

    // Every try stays in the job's history (issue 15): the count opens them with their errors.
    const toggle = toServer.getByTestId('job-tries-toggle');
    await page.waitForFunction(
      () => {
        const rows = Array.from(document.querySelectorAll('[data-testid="job-row"]'));
        const row = rows.find((r) => r.textContent?.includes('Client archive'));
        return row?.querySelector('[data-testid="job-tries-toggle"]')?.textContent === '2';
      },
      undefined,
      { timeout: 20_000 },
    );
    await toggle.click();
    const tries = page.getByTestId('job-try');
    assert.equal(await tries.count(), 2);
    assert.match((await tries.first().textContent()) ?? '', /private|refused|ECONN/i);
    await settledScreenshot(page, '75-project-protocol-tries');
    // The same in German.
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'de'));
    try {
      await page.reload();
      await page.getByText('Übertragungsprotokoll').waitFor();
      await page.getByRole('button', { name: 'Alle Versuche zeigen' }).last().click();
      await page.getByText('Versuche dieser Auslieferung').waitFor();
      await settledScreenshot(page, '75-project-protocol-tries-de');
    } finally {
      await page.evaluate(() => localStorage.setItem('photorelay.language', 'en'));
      await page.reload();
    }
  });

  it('counts the upload, charts it and logs the connection', async () => {
    await page.goto(projectUrl('overview'));
    await page.getByTestId('stat-files-in').getByText('1').waitFor();
    assert.equal(await page.getByTestId('stat-bytes-in').textContent(), '176 KB');
    const session = page.getByTestId('log-session').first();
    await session.waitFor();
    await session.getByText('logged in').waitFor();
    await session.click();
    const entries = page.getByTestId('log-entries').first();
    await entries.getByText(/STOR DSC_0042\.JPG/).waitFor();
    const chart = page.getByTestId('traffic-chart');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    // All traffic is minutes old: the chart shows the last hour, minute by minute (issue 16).
    await chart.getByRole('heading', { name: 'Traffic of the last hour' }).waitFor();
    assert.equal(await chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count(), 6);
    await settledScreenshot(page, '76-project-overview');
    await chart.getByTestId('chart-bytes').click();
    await chart.getByText(/^Data: 176 KB in/).waitFor();
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'de'));
    try {
      await page.reload();
      await chart.getByRole('heading', { name: 'Datenverkehr der letzten Stunde' }).waitFor();
      await chart.locator('.recharts-bar-rectangle').first().waitFor();
      await settledScreenshot(page, '76-project-overview-de');
    } finally {
      await page.evaluate(() => localStorage.setItem('photorelay.language', 'en'));
      await page.reload();
    }
  });

  it('links the dashboard summary to the project', async () => {
    await page.goto('/');
    const table = page.getByTestId('job-summary-table');
    await table.waitFor();
    await table.getByRole('link', { name: 'Bundesliga live' }).first().click();
    await page.waitForURL(`**/project/overview?id=${projectId}`);
    await page.getByRole('heading', { name: 'Bundesliga live' }).waitFor();
  });

  it('deletes the FTP server from its page after the question', async () => {
    await treeItem(page, 'Client archive').click();
    await page.waitForURL(/\/ftpserver\?id=\d+/);
    await page.getByTestId('ftpserver-delete').click();
    const dialog = page.getByTestId('ftpserver-delete-dialog');
    await dialog.getByText('Delete the FTP server “Client archive”?', { exact: false }).waitFor();
    await settledScreenshot(page, '77-ftpserver-delete', { fullPage: false });
    await dialog.getByTestId('ftpserver-delete-dialog-confirm').click();
    await page.waitForURL('**/team/ftpservers');
    await page.getByTestId('ftpservers-empty').waitFor();
    await treeItem(page, 'Client archive').waitFor({ state: 'detached' });
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });

  type ProjectShape = { ftpServers: { path: string; enabled: boolean }[] };
  async function expectProject(check: (project: ProjectShape) => boolean) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const { project } = await api.get<{ project: ProjectShape }>(`project/${projectId}`);
      if (check(project)) return;
      if (Date.now() > deadline)
        throw new Error(`project not as expected: ${JSON.stringify(project.ftpServers)}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
});
