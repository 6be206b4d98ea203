// Issue 16, "what an agency trips over in daily use": a visible way to the first project, names
// that stay apart, and the full path of the current item in the page header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { freePort, startServer, type TestServer } from './support/server.ts';
import { rootFolderId, teamApi, treeItem } from './support/team-api.ts';

describe('daily use', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  before(async () => {
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    const context = await newContext(browser, server.url);
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    problems = watchProblems(page);
    const owner = newAccount('Dana', 'Dana Daily Media');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
  });

  after(async () => {
    if (process.env.DEBUG_DAILY) {
      console.log(problems.errors, page.url());
      await page.screenshot({ path: '/tmp/daily/shot.png' });
    }
    await browser?.close();
    await server?.stop();
  });

  it('the empty dashboard leads to the first project; the header shows its path', async () => {
    const steps = page.getByTestId('first-steps');
    await steps.waitFor();
    assert.equal(await page.getByTestId('first-step-project').getAttribute('data-done'), 'false');
    await page.getByTestId('first-step-project-action').click();
    await page.waitForURL(/\/newproject\?parentfolder=\d+/);
    await page.getByTestId('new-project-name').fill('Matchday');
    await page.getByTestId('new-project-submit').click();
    await page.waitForURL(/\/project\/overview\?id=\d+/);
    const path = (await page.getByTestId('item-path').innerText()).split(/\s+/).filter(Boolean);
    assert.deepEqual(path, ['Projects', '/', 'Matchday']);
    await page.goto('/');
    await page.getByTestId('first-step-project').and(page.locator('[data-done="true"]')).waitFor();
    await page.getByTestId('first-step-server-action').waitFor();
  });

  it('the Projects folder page offers New project and New folder; a second name is refused', async () => {
    await treeItem(page, 'Projects').click();
    await page.waitForURL(/\/folder\?id=\d+/);
    await page.getByTestId('folder-new-folder').waitFor();
    await page.getByTestId('folder-new-project').click();
    await page.waitForURL(/\/newproject\?parentfolder=\d+/);
    await page.getByTestId('new-project-name').fill('MATCHDAY');
    await page.getByTestId('new-project-submit').click();
    await page.getByText('Another item in this folder already has this name.', { exact: false }).waitFor();
    assert.match(page.url(), /\/newproject/);
  });

  it('signed-in users go from /login, /signup and /recover to /; the team chip switches teams', async () => {
    for (const path of ['/login', '/signup', '/recover']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
    }
    await page.getByTestId('first-steps').waitFor();
    await page.getByTestId('topbar-team').click();
    await page.getByTestId('change-team-list').waitFor();
    await page.keyboard.press('Escape');
  });

  it('destination changes confirm with a snackbar; removal asks first (item 9)', async () => {
    const api = await teamApi(page, server);
    const projects = await rootFolderId(api, 'projects');
    const { projectId } = await api.post<{ projectId: number }>('project', {
      name: 'Hub',
      parentFolderId: projects,
    });
    const desk = await api.post<{ projectId: number }>('project', { name: 'Desk', parentFolderId: projects });
    await api.post(`project/${projectId}/destinationproject/${desk.projectId}`);
    await page.goto(`/project/destinations?id=${projectId}`);
    const row = page.getByTestId('destination-project-Desk');
    await row.getByTestId('destination-enabled').locator('input').uncheck();
    await page.getByText('Desk is paused: no files are sent there.').waitFor();
    await row.getByTestId('destination-remove').click();
    await page.getByTestId('destination-remove-confirm').waitFor();
    await page.getByTestId('destination-remove-confirm-cancel').click();
    await page.getByTestId('destination-remove-confirm').waitFor({ state: 'hidden' });
    assert.equal(await row.count(), 1, 'cancel keeps the destination');
    await row.getByTestId('destination-remove').click();
    await page.getByTestId('destination-remove-confirm-confirm').click();
    await page.getByText('Desk is no longer a destination.').waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('after deleting an FTP server from its page the app does not ask for it again', async () => {
    const api = await teamApi(page, server);
    const parent = await rootFolderId(api, 'ftpservers');
    const { ftpserverid } = await api.post<{ ftpserverid: number }>('ftpserver', {
      name: 'Gone soon',
      host: 'h.example.com',
      protocol: 'sftp',
      username: 'u',
      password: 'p',
      parentFolderId: parent,
    });
    await page.goto(`/ftpserver?id=${ftpserverid}`);
    await page.getByRole('heading', { name: 'Gone soon' }).waitFor();
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await page.getByTestId('ftpserver-delete').click();
    await page.getByTestId('ftpserver-delete-dialog-confirm').click();
    await page.waitForURL(/\/team\/ftpservers/);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(notFound, []);
  });

  it("the invite dialog's address message follows one rule: after leaving the field", async () => {
    await page.goto('/users');
    await page.getByTestId('users-add').click();
    const dialog = page.getByTestId('invite-dialog');
    const field = dialog.getByTestId('invite-email');
    const message = dialog.getByText('Not a valid e-mail address');
    await field.fill('ines@example.c');
    await page.waitForTimeout(300);
    assert.equal(await message.count(), 0, 'not while first typing, even when it looks complete');
    await field.blur();
    await message.waitFor();
    await field.fill('ines@example.com');
    await message.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('the FTP servers folder page offers New FTP server', async () => {
    await treeItem(page, 'FTP servers').click();
    await page.getByTestId('folder-new-ftpserver').click();
    await page.waitForURL(/\/newftpserver\?parentfolder=\d+/);
    assert.deepEqual(problems.errors, []);
  });
});
