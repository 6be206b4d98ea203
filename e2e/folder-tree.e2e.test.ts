// The drawer tree's context menu (spec §2): create, rename (folder, project, FTP server), move
// and delete, with the spec's confirmations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, startServer, type TestServer } from './support/server.ts';
import { menuEntries, openTreeMenu, pressEscape, treeItem } from './support/team-api.ts';

describe('folder tree context menu', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  before(async () => {
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    const context = await newContext(browser, server.url);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    const owner = newAccount('Tessa', 'Tessa Tree Media');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    await page.getByTestId('folder-tree').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers only what fits each node', async () => {
    await openTreeMenu(page, 'Projects');
    assert.deepEqual(await menuEntries(page), ['newProject', 'newFolder']);
    await settledScreenshot(page, '50-tree-menu-projects', { fullPage: false });
    await pressEscape(page);
    await openTreeMenu(page, 'FTP servers');
    assert.deepEqual(await menuEntries(page), ['newFtpServer', 'newFolder']);
    await pressEscape(page);
    // Calendars and settings have no menu: the browser's own menu is left alone.
    await treeItem(page, 'Calendars').click({ button: 'right' });
    assert.equal(await page.getByTestId('tree-menu').getByRole('menu').count(), 0);
  });

  it('creates a folder and names it inline (Enter saves)', async () => {
    await openTreeMenu(page, 'Projects');
    await page.getByTestId('tree-menu-newFolder').click();
    const input = page.getByTestId('tree-rename-input');
    await input.waitFor();
    assert.equal(await input.inputValue(), 'New folder');
    await input.fill('Sport');
    await settledScreenshot(page, '51-tree-new-folder', { fullPage: false });
    await input.press('Enter');
    await treeItem(page, 'Sport').waitFor();
    assert.equal(await page.getByTestId('tree-rename-input').count(), 0);
  });

  it('creates a project in that folder from the menu', async () => {
    await openTreeMenu(page, 'Sport');
    assert.deepEqual(await menuEntries(page), ['newProject', 'newFolder', 'rename', 'move', 'delete']);
    await page.getByTestId('tree-menu-newProject').click();
    await page.waitForURL(/\/newproject\?parentfolder=\d+/);
    await page.getByTestId('new-project-parent').getByText('Sport').waitFor();
    await page.getByTestId('new-project-submit').click();
    await page.getByText('The project name must not be empty.').waitFor();
    await settledScreenshot(page, '52-new-project-validation');
    await page.getByTestId('new-project-name').fill('Matchday');
    await page.getByTestId('new-project-submit').click();
    await page.waitForURL(/\/project\/overview\?id=\d+/);
    await page.getByRole('heading', { name: 'Matchday' }).waitFor();
    await treeItem(page, 'Matchday').waitFor();
  });

  it('creates an FTP server from the menu', async () => {
    await openTreeMenu(page, 'FTP servers');
    await page.getByTestId('tree-menu-newFtpServer').click();
    await page.waitForURL(/\/newftpserver\?parentfolder=\d+/);
    await page.getByTestId('ftpserver-name').fill('Agency drop');
    await page.getByTestId('ftpserver-host').fill('ftp.agency.example');
    await page.getByTestId('ftpserver-username').fill('photos');
    await page.getByTestId('ftpserver-password').fill('drop-secret');
    await page.getByTestId('ftpserver-save').click();
    await page.waitForURL('**/team/ftpservers');
    await treeItem(page, 'Agency drop').waitFor();
  });

  it('renames a folder, a project and an FTP server inline', async () => {
    // Folder: Enter saves.
    await openTreeMenu(page, 'Sport');
    await page.getByTestId('tree-menu-rename').click();
    await page.getByTestId('tree-rename-input').fill('Football');
    await page.getByTestId('tree-rename-input').press('Enter');
    await treeItem(page, 'Football').waitFor();

    // Project: Escape cancels, leaving the field saves.
    await treeItem(page, 'Matchday').click();
    await page.getByRole('heading', { name: 'Matchday' }).waitFor();
    await openTreeMenu(page, 'Matchday');
    await page.getByTestId('tree-menu-rename').click();
    await page.getByTestId('tree-rename-input').fill('Never saved');
    await page.getByTestId('tree-rename-input').press('Escape');
    await treeItem(page, 'Matchday').waitFor();
    assert.equal(await treeItem(page, 'Never saved').count(), 0);
    await openTreeMenu(page, 'Matchday');
    await page.getByTestId('tree-menu-rename').click();
    await page.getByTestId('tree-rename-input').fill('Matchday 1');
    await settledScreenshot(page, '53-tree-rename', { fullPage: false });
    await page.getByRole('heading').first().click();
    await treeItem(page, 'Matchday 1').waitFor();
    // The open project page follows the new name.
    await page.getByRole('heading', { name: 'Matchday 1' }).waitFor();

    // FTP server: Enter saves; the list page shows the new name.
    await openTreeMenu(page, 'Agency drop');
    await page.getByTestId('tree-menu-rename').click();
    await page.getByTestId('tree-rename-input').fill('Agency archive');
    await page.getByTestId('tree-rename-input').press('Enter');
    await treeItem(page, 'Agency archive').waitFor();
    await page.goto('/team/ftpservers');
    await page.getByTestId('ftpserver-row-Agency archive').waitFor();

    // Everything survives a reload.
    await page.reload();
    for (const name of ['Football', 'Matchday 1', 'Agency archive']) await treeItem(page, name).waitFor();
  });

  it('moves a project in two steps, only to folders of the same type', async () => {
    await openTreeMenu(page, 'Matchday 1');
    await page.getByTestId('tree-menu-move').click();
    await page.getByTestId('tree-move-pending').waitFor();
    // Not into its own folder, not into the FTP server tree.
    await openTreeMenu(page, 'Football');
    assert.ok(!(await menuEntries(page)).includes('place'));
    await pressEscape(page);
    await openTreeMenu(page, 'FTP servers');
    assert.deepEqual(await menuEntries(page), ['newFtpServer', 'newFolder', 'cancelMove']);
    await pressEscape(page);
    await openTreeMenu(page, 'Projects');
    await page.getByTestId('tree-menu-place').getByText('Place Matchday 1 here').waitFor();
    await settledScreenshot(page, '54-tree-place-here', { fullPage: false });
    await page.getByTestId('tree-menu-place').click();
    await page.getByText('“Matchday 1” was moved to “Projects”.').waitFor();
    assert.equal(await page.getByTestId('tree-move-pending').count(), 0);
    // The project now sits directly under Projects: Football has no children left.
    const footballBox = await treeItem(page, 'Football').boundingBox();
    const projectBox = await treeItem(page, 'Matchday 1').boundingBox();
    assert.ok(footballBox && projectBox);
    assert.equal(Math.round(footballBox.x), Math.round(projectBox.x), 'same depth as the folder');
  });

  it('moves a folder, but never into itself or below itself', async () => {
    await openTreeMenu(page, 'Football');
    await page.getByTestId('tree-menu-newFolder').click();
    await page.getByTestId('tree-rename-input').fill('Bundesliga');
    await page.getByTestId('tree-rename-input').press('Enter');
    await treeItem(page, 'Bundesliga').waitFor();

    await openTreeMenu(page, 'Football');
    await page.getByTestId('tree-menu-move').click();
    await openTreeMenu(page, 'Bundesliga');
    assert.ok(!(await menuEntries(page)).includes('place'), 'not below itself');
    await pressEscape(page);
    await openTreeMenu(page, 'Football');
    assert.ok(!(await menuEntries(page)).includes('place'), 'not into itself');
    await page.getByTestId('tree-menu-cancelMove').click();
    assert.equal(await page.getByTestId('tree-move-pending').count(), 0);

    // Bundesliga can go up to Projects.
    await openTreeMenu(page, 'Bundesliga');
    await page.getByTestId('tree-menu-move').click();
    await openTreeMenu(page, 'Projects');
    await page.getByTestId('tree-menu-place').click();
    await page.getByText('“Bundesliga” was moved to “Projects”.').waitFor();
  });

  it('deletes only empty items, after the spec confirmation', async () => {
    // A folder with something inside has no delete entry.
    await openTreeMenu(page, 'Projects');
    await page.getByTestId('tree-menu-newFolder').click();
    await page.getByTestId('tree-rename-input').fill('Archive');
    await page.getByTestId('tree-rename-input').press('Enter');
    await openTreeMenu(page, 'Matchday 1');
    await page.getByTestId('tree-menu-move').click();
    await openTreeMenu(page, 'Archive');
    await page.getByTestId('tree-menu-place').click();
    await page.getByText('“Matchday 1” was moved to “Archive”.').waitFor();
    await openTreeMenu(page, 'Archive');
    assert.ok(!(await menuEntries(page)).includes('delete'));
    await pressEscape(page);

    // Project.
    await treeItem(page, 'Matchday 1').click();
    await page.waitForURL(/\/project\/overview/);
    await openTreeMenu(page, 'Matchday 1');
    await page.getByTestId('tree-menu-delete').click();
    const dialog = page.getByTestId('tree-delete-dialog');
    await dialog.getByText('The project will be deleted permanently.').waitFor();
    await settledScreenshot(page, '55-tree-delete-project', { fullPage: false });
    await dialog.getByTestId('tree-delete-dialog-confirm').click();
    await page.getByText('“Matchday 1” was deleted.').waitFor();
    await treeItem(page, 'Matchday 1').waitFor({ state: 'detached' });
    // Its page is gone, so the app left it.
    await page.waitForURL((url) => url.pathname === '/');

    // Folder.
    await openTreeMenu(page, 'Archive');
    await page.getByTestId('tree-menu-delete').click();
    await dialog.getByText('The folder will be deleted permanently.').waitFor();
    await dialog.getByTestId('tree-delete-dialog-confirm').click();
    await treeItem(page, 'Archive').waitFor({ state: 'detached' });

    // FTP server.
    await openTreeMenu(page, 'Agency archive');
    await page.getByTestId('tree-menu-delete').click();
    await dialog.getByText('The FTP server will be deleted permanently.').waitFor();
    await dialog.getByTestId('tree-delete-dialog-cancel').click();
    await treeItem(page, 'Agency archive').waitFor();
    await openTreeMenu(page, 'Agency archive');
    await page.getByTestId('tree-menu-delete').click();
    await dialog.getByTestId('tree-delete-dialog-confirm').click();
    await treeItem(page, 'Agency archive').waitFor({ state: 'detached' });
    await settledScreenshot(page, '56-tree-after-delete', { fullPage: false });
  });

  it('shows the tree in German with localized roots', async () => {
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-de').click();
    for (const label of ['Projekte', 'FTP-Server', 'Kalender', 'Einstellungen'])
      await treeItem(page, label).waitFor();
    await treeItem(page, 'Benutzer').waitFor();
    await treeItem(page, 'Konfigurationsdateien').waitFor();
    await openTreeMenu(page, 'Projekte');
    await page.getByTestId('tree-menu-newProject').getByText('Neues Projekt').waitFor();
    await settledScreenshot(page, '57-tree-menu-de', { fullPage: false });
    await pressEscape(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-en').click();
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });
});
