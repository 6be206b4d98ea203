// Config files (spec §2 'Config files page', §5): upload, the client checks, replace by name,
// download through the hidden frame, delete after the confirmation.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, startServer, type TestServer } from './support/server.ts';
import { treeItem } from './support/team-api.ts';

const file = (name: string, content: string | Buffer, mimeType = 'application/octet-stream') => ({
  name,
  mimeType,
  buffer: typeof content === 'string' ? Buffer.from(content) : content,
});

describe('config files', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  const rowOf = (name: string) => page.getByTestId(`configfile-row-${name}`);

  before(async () => {
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    const context = await newContext(browser, server.url);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    const owner = newAccount('Cora', 'Cora Config Press');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens from the tree and lists the team files', async () => {
    await treeItem(page, 'Config files').click();
    await page.waitForURL('**/configfiles');
    await page.getByRole('heading', { name: 'Config files' }).waitFor();
    for (const column of ['File', 'Size', 'Date']) {
      await page
        .getByRole('columnheader', { name: column })
        .or(page.getByTestId('configfiles-empty'))
        .first()
        .waitFor();
    }
  });

  it('refuses files that are too large or of another type (spec §5)', async () => {
    const input = page.getByTestId('configfile-input');
    await input.setInputFiles(file('huge.json', Buffer.alloc(100_000, 0x20)));
    await page.getByText('File size should be less than 100 KB!').waitFor();
    await input.setInputFiles(file('picture.jpg', 'not a config'));
    await page.getByText('File must be of type .xmp or .json').waitFor();
    await settledScreenshot(page, '60-configfiles-refused', { fullPage: false, waitForSnackbars: false });
    assert.equal(await rowOf('huge.json').count(), 0);
  });

  it('uploads a file and shows it with size and date', async () => {
    const content = JSON.stringify({ categories: ['football', 'handball'], teams: true }, null, 2);
    await page
      .getByTestId('configfile-input')
      .setInputFiles(file('sport-extra.json', content, 'application/json'));
    await page.getByText('File uploaded').first().waitFor();
    const row = rowOf('sport-extra.json');
    await row.waitFor();
    assert.equal(await row.getByTestId('configfile-size').textContent(), `${Buffer.byteLength(content)} B`);
    await page
      .getByTestId('configfile-input')
      .setInputFiles(
        file('caption.xmp', `<x:xmpmeta xmlns:x="adobe:ns:meta/">${' '.repeat(3000)}</x:xmpmeta>`),
      );
    await rowOf('caption.xmp').waitFor();
    assert.equal(await rowOf('caption.xmp').getByTestId('configfile-size').textContent(), '3 KB');
    await settledScreenshot(page, '61-configfiles');
  });

  it('shows a server refusal as an upload failure', async () => {
    await page.getByTestId('configfile-input').setInputFiles(file('broken.json', '{ not json'));
    await page.getByText('File upload failed').first().waitFor();
    await page.getByTestId('configfile-failure').getByText('Invalid JSON', { exact: false }).waitFor();
    assert.equal(await rowOf('broken.json').count(), 0);
  });

  it('replaces a file with the same name', async () => {
    const before = await page.locator('[data-testid^="configfile-row-"]').count();
    const bigger = JSON.stringify({ categories: ['football', 'handball', 'ice hockey', 'basketball'] });
    await page
      .getByTestId('configfile-input')
      .setInputFiles(file('sport-extra.json', bigger, 'application/json'));
    await rowOf('sport-extra.json')
      .getByText(`${Buffer.byteLength(bigger)} B`)
      .waitFor();
    assert.equal(await page.locator('[data-testid^="configfile-row-"]').count(), before, 'no second row');
  });

  it('downloads a file through the hidden frame', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      rowOf('sport-extra.json').getByTestId('configfile-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'sport-extra.json');
    const saved = await download.path();
    const text = await fs.readFile(saved, 'utf8');
    assert.match(text, /ice hockey/);
    assert.match(page.url(), /\/configfiles$/, 'the page stays');
  });

  it('deletes a file after the confirmation', async () => {
    await rowOf('caption.xmp').getByTestId('configfile-delete').click();
    const dialog = page.getByTestId('configfile-delete-dialog');
    await dialog.getByText('Remove file').waitFor();
    await dialog.getByText('The file will be removed permanently.').waitFor();
    await settledScreenshot(page, '62-configfiles-delete', { fullPage: false });
    await dialog.getByTestId('configfile-delete-dialog-cancel').click();
    await rowOf('caption.xmp').waitFor();
    await rowOf('caption.xmp').getByTestId('configfile-delete').click();
    await dialog.getByTestId('configfile-delete-dialog-confirm').click();
    await rowOf('caption.xmp').waitFor({ state: 'detached' });
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });
});
