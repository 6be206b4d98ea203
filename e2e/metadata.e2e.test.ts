// The metadata tab of a project (spec §2 'Project tabs', §4 modes and saving, §5 inputs, §8 texts):
// autosave after 2 seconds, values survive a reload, mode Off disables inputs, clear with
// confirmation, XMP import and download, the test image preview, debug details, German labels.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  type Account,
  currentTeamOf,
  jsonHeaders,
  newAccount,
  registerVerified,
  signIn,
} from './support/accounts.ts';
import { launchBrowser, newContext, screenshot, watchProblems } from './support/browser.ts';
import { freePort, repoRoot, startServer, type TestServer } from './support/server.ts';

const sharedData = path.resolve(repoRoot, '../shared/data');
const referenceXmp = path.join(sharedData, 'xmp/IPTC-PhotometadataRef-Std2025.1.extracted.xmp');
const testImage = path.join(sharedData, 'images/exiv2-FurnaceCreekInn.jpg');

const input = (page: Page, key: string): Locator => page.getByTestId(`xmp-input-${key}`).getByRole('textbox');
const headline = (page: Page) => input(page, 'headline|0|x-default');
const keyword = (page: Page, position: number) => input(page, `keywords|${position}|x-default`);

async function chooseMode(page: Page, propertyId: string, mode: RegExp) {
  await page.getByTestId(`xmp-mode-${propertyId}`).getByRole('combobox').click();
  const saved = page.waitForResponse(
    (response) => response.url().includes(`/xmpvaluemode/${propertyId}/mode/`) && response.ok(),
  );
  await page.getByRole('option', { name: mode }).click();
  await saved;
}

const valueSaved = (page: Page, pathPart: string) =>
  page.waitForResponse(
    (response) =>
      response.url().includes(`/xmpvalue/${pathPart}`) &&
      response.request().method() === 'PUT' &&
      response.ok(),
    { timeout: 10_000 },
  );

describe('project metadata tab', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: ReturnType<typeof watchProblems>;
  let projectId: number;
  const account: Account = newAccount('Metadata');

  const openTab = async (query = '') => {
    await page.goto(`/project/metadata?id=${projectId}${query}`);
    await page.getByTestId('metadata-tab').waitFor({ timeout: 20_000 });
  };

  before(async () => {
    // The server also opens FTP and SFTP ingest ports: free ones, so parallel runs do not collide.
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    context = await newContext(browser, server.url, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    await registerVerified(server, page.request, account);
    await signIn(page, account);

    // A project in the team's projects root, through the API.
    const team = await currentTeamOf(page);
    const tree = await (await page.request.get(`${server.url}/api/${team}/folders`)).json();
    const root = (tree.folders as Array<{ id: number; type: string; isRoot: boolean }>).find(
      (node) => node.isRoot && node.type === 'projects',
    );
    assert.ok(root, 'the team has a projects root');
    const created = await page.request.post(`${server.url}/api/${team}/project`, {
      headers: jsonHeaders(server),
      data: { name: 'Cup Final 2025', parentFolderId: root.id },
    });
    assert.ok(created.ok(), await created.text());
    projectId = (await created.json()).projectId;
  });

  after(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('starts with every mode Off, the inputs open to typing (issue 28: typing sets Replace)', async () => {
    await openTab();
    for (const label of ['Image Content', 'Image Location', 'Location Taken/Shown', 'Image Rights', 'More']) {
      await page.getByRole('tab', { name: label }).waitFor();
    }
    assert.equal(await page.getByTestId('xmp-property-headline').getAttribute('data-mode'), 'off');
    assert.ok(await headline(page).isEnabled(), 'typing into an Off field sets Replace (metadata-variables)');
    assert.equal(await page.getByTestId('xmp-save-status').getAttribute('data-state'), 'saved');
    await screenshot(page, '70-metadata-empty', { fullPage: false });
  });

  it('saves a headline and keywords 2 seconds after the last change; a reload shows them', async () => {
    await openTab();
    await chooseMode(page, 'headline', /^Replace/);
    assert.ok(await headline(page).isEnabled(), 'Replace enables the input');

    const headlineSaved = valueSaved(page, 'headline');
    const typedAt = Date.now();
    await headline(page).fill('Late winner decides the cup final');
    await page.getByTestId('xmp-save-status').and(page.locator('[data-state="pending"]')).waitFor();
    const response = await headlineSaved;
    const waited = Date.now() - typedAt;
    assert.ok(waited >= 1800, `saved ${waited} ms after the change, not before 2 s`);
    assert.deepEqual(response.request().postDataJSON(), { value: 'Late winner decides the cup final' });

    await chooseMode(page, 'keywords', /^Replace/);
    const first = valueSaved(page, 'keywords/position/0');
    await keyword(page, 0).fill('football');
    await page.getByTestId('xmp-add-keywords').click();
    await keyword(page, 1).waitFor();
    assert.ok(
      await keyword(page, 1).evaluate((element) => element === document.activeElement),
      'the new item has the focus',
    );
    const second = valueSaved(page, 'keywords/position/1');
    await keyword(page, 1).fill('cup final');
    await Promise.all([first, second]);
    await page.getByTestId('xmp-save-status').and(page.locator('[data-state="saved"]')).waitFor();
    await screenshot(page, '71-metadata-edited', { fullPage: false });

    await page.reload();
    await page.getByTestId('metadata-tab').waitFor();
    assert.equal(await headline(page).inputValue(), 'Late winner decides the cup final');
    assert.equal(await keyword(page, 0).inputValue(), 'football');
    assert.equal(await keyword(page, 1).inputValue(), 'cup final');
    assert.equal(await page.getByTestId('xmp-property-keywords').getAttribute('data-mode'), 'replace');
  });

  it('keeps a list item whose text is cleared until it is removed', async () => {
    await openTab();
    const deleted = page.waitForResponse(
      (response) =>
        response.url().includes('/xmpvalue/keywords/position/1') && response.request().method() === 'DELETE',
    );
    await keyword(page, 1).fill('');
    assert.ok((await deleted).ok());
    await page.getByTestId('xmp-save-status').and(page.locator('[data-state="saved"]')).waitFor();
    assert.equal(await keyword(page, 1).count(), 1, 'the emptied input stays');
    await page.getByTestId('xmp-input-keywords|1|x-default').getByRole('button', { name: 'Remove' }).click();
    await keyword(page, 1).waitFor({ state: 'detached' });
    assert.equal(await keyword(page, 0).inputValue(), 'football');
  });

  it('flushes a pending edit when the page is left before the 2 seconds are over', async () => {
    await openTab();
    await headline(page).fill('Saved on the way out');
    // Leave at once: the tab unmounts and sends the edit.
    const saved = valueSaved(page, 'headline');
    await page.getByTestId('project-tab-overview').click();
    await saved;
    await openTab();
    assert.equal(await headline(page).inputValue(), 'Saved on the way out');
  });

  it('sends a pending edit when the page is reloaded before the 2 seconds are over', async () => {
    await openTab();
    await headline(page).fill('Saved while reloading');
    await page.reload();
    // The keepalive request may land after the new page has read the values: ask the server.
    const team = await currentTeamOf(page);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const stored = await (
        await page.request.get(`${server.url}/api/${team}/project/${projectId}/xmpvalues`)
      ).json();
      const values = stored.xmpvalues as Array<{ propertytypeids: string; value: string }>;
      if (
        values.some(
          (entry) => entry.propertytypeids === 'headline' && entry.value === 'Saved while reloading',
        )
      )
        break;
      assert.ok(Date.now() < deadline, 'the edit reached the server');
      await page.waitForTimeout(200);
    }
    await openTab();
    assert.equal(await headline(page).inputValue(), 'Saved while reloading');
  });

  it('checks the 1024 characters and warns about the IPTC-IIM limit while typing', async () => {
    await openTab();
    const card = page.getByTestId('xmp-property-headline');
    await headline(page).fill('x'.repeat(300));
    await card.getByText(/IPTC-IIM Headline holds 256/).waitFor();
    await headline(page).fill('x'.repeat(1025));
    await card.getByText('At most 1024 characters (1025 given)').waitFor();
    await card.getByText('1025 / 1024').waitFor();
    await screenshot(page, '72-metadata-input-checks', { fullPage: false });
    // Back to a valid text, which is saved again.
    const saved = valueSaved(page, 'headline');
    await headline(page).fill('Late winner decides the cup final');
    await saved;
  });

  it('keeps the value when the mode is switched to Off, also after a reload', async () => {
    await openTab();
    await chooseMode(page, 'headline', /^Off/);
    assert.equal(await headline(page).inputValue(), 'Late winner decides the cup final', 'the value stays');
    await page.reload();
    await page.getByTestId('metadata-tab').waitFor();
    assert.equal(await page.getByTestId('xmp-property-headline').getAttribute('data-mode'), 'off');
    assert.equal(await headline(page).inputValue(), 'Late winner decides the cup final');
    assert.equal(
      await page.getByTestId('xmp-property-keywords').getAttribute('data-mode'),
      'replace',
      'other properties keep their mode',
    );
  });

  it('hides unset values on request and shows technical details in debug mode', async () => {
    await openTab('&debug=1');
    await page.getByTestId('xmp-debug-headline').getByText('photoshop:Headline').waitFor();
    await page.getByTestId('xmp-hide-unset').check();
    await page.getByTestId('xmp-property-keywords').waitFor();
    assert.equal(await page.getByTestId('xmp-property-title').count(), 0, 'unset Title is hidden');
    assert.equal(await page.getByTestId('xmp-property-headline').count(), 1, 'a value counts as set');
    await screenshot(page, '73-metadata-hide-unset-debug', { fullPage: false });
    await page.getByTestId('xmp-hide-unset').uncheck();
    await openTab('&debug=0');
    assert.equal(await page.getByTestId('xmp-debug-headline').count(), 0);
  });

  it('downloads the values as an XMP sidecar', async () => {
    await openTab();
    const download = page.waitForEvent('download');
    await page.getByTestId('xmp-download').click();
    const file = await download;
    assert.match(file.suggestedFilename(), /\.xmp$/);
    const content = fs.readFileSync(await file.path(), 'utf8');
    assert.match(content, /football/);
    assert.match(content, /Late winner decides the cup final/);
  });

  it('clears all metadata after the confirmation', async () => {
    await openTab();
    await page.getByTestId('xmp-clear').click();
    const dialog = page.getByTestId('xmp-clear-confirm');
    await dialog.getByText('Really clear the whole meta data of this project?').waitFor();
    await screenshot(page, '74-metadata-clear-confirm', { fullPage: false });
    await dialog.getByTestId('xmp-clear-confirm-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await keyword(page, 0).inputValue(), 'football', 'cancel keeps the values');

    await page.getByTestId('xmp-clear').click();
    const cleared = page.waitForResponse(
      (response) => response.url().endsWith('/xmpvalues') && response.request().method() === 'DELETE',
    );
    await dialog.getByTestId('xmp-clear-confirm-confirm').click();
    assert.ok((await cleared).ok());
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByTestId('metadata-tab').waitFor();
    assert.equal(await headline(page).inputValue(), '');
    assert.equal(await keyword(page, 0).inputValue(), '');
    assert.equal(await page.getByTestId('xmp-property-keywords').getAttribute('data-mode'), 'off');
  });

  it('imports an .xmp file, warning that it replaces everything', async () => {
    assert.ok(fs.existsSync(referenceXmp), `reference XMP missing: ${referenceXmp}`);
    await openTab();
    await page
      .getByText('Importing an XMP file clears all existing metadata values of this project.')
      .waitFor();
    await page.getByTestId('xmp-upload-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('no xmp'),
    });
    await page.getByText('Only .xmp files can be imported.').waitFor();

    // Nothing to lose yet: no confirmation.
    await page.getByTestId('xmp-upload-input').setInputFiles(referenceXmp);
    await page.getByText('XMP file uploaded.').waitFor({ timeout: 20_000 });
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('textarea')).some(
        (area) => area.value === 'The Headline (ref2025.1)',
      ),
    );
    assert.equal(await page.getByTestId('xmp-property-headline').getAttribute('data-mode'), 'replace');
    await screenshot(page, '75-metadata-imported', { fullPage: true });

    // With values present the import asks first.
    await page.getByTestId('xmp-upload-input').setInputFiles({
      name: 'broken.xmp',
      mimeType: 'application/rdf+xml',
      buffer: Buffer.from('<x:xmpmeta'),
    });
    const confirm = page.getByTestId('xmp-upload-confirm');
    await confirm.getByText(/clears all existing metadata values/).waitFor();
    await confirm.getByTestId('xmp-upload-confirm-confirm').click();
    await page.getByText(/^The XMP file could not be loaded: /).waitFor({ timeout: 20_000 });
  });

  it('stamps a test image with the values and offers it for download', async () => {
    assert.ok(fs.existsSync(testImage), `sample image missing: ${testImage}`);
    await openTab();
    await page.getByTestId('xmp-property-headline').waitFor();
    await page.getByTestId('xmp-preview-input').setInputFiles(testImage);
    await page.getByTestId('xmp-preview-busy').waitFor();
    const result = page.getByTestId('xmp-preview-result');
    await result.waitFor({ timeout: 30_000 });
    const href = await page.getByTestId('xmp-preview-download').getAttribute('href');
    assert.ok(href?.includes('/command/downloadresultfile/'), href ?? 'no link');
    const stamped = await page.request.get(`${server.url}${href}`);
    assert.equal(stamped.headers()['content-type'], 'image/jpeg');
    const bytes = Buffer.from(await stamped.body());
    assert.ok(
      bytes.includes(Buffer.from('The Headline (ref2025.1)')),
      'the stamped picture carries the headline',
    );
    await page.getByTestId('xmp-preview-download').scrollIntoViewIfNeeded();
    await screenshot(page, '76-metadata-preview', { fullPage: false });

    await page.getByTestId('xmp-preview-input').setInputFiles({
      name: 'broken.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('not a jpeg at all'),
    });
    await page
      .getByTestId('xmp-preview-error')
      .getByText(/^Something went wrong:/)
      .waitFor({ timeout: 30_000 });
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openTab();
      await page.getByTestId('xmp-property-headline').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no horizontal scrolling (${overflow} px)`);
      await screenshot(page, '78-metadata-mobile', { fullPage: false });
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('shows the German labels', async () => {
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'de'));
    try {
      await openTab();
      for (const label of ['Bildinhalt', 'Bildort', 'Bildrechte', 'Weitere'])
        await page.getByRole('tab', { name: label }).waitFor();
      await page.getByTestId('xmp-mode-title').getByRole('combobox').click();
      for (const mode of ['Aus', 'Ersetzen', 'Anhängen', 'Voranstellen'])
        await page.getByRole('option', { name: new RegExp(`^${mode}`) }).waitFor();
      await screenshot(page, '77-metadata-de', { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByTestId('xmp-mode-keywords').getByRole('combobox').click();
      await page.getByRole('option', { name: /^Zusammenführen/ }).waitFor();
      await page.keyboard.press('Escape');
    } finally {
      await page.evaluate(() => localStorage.setItem('photorelay.language', 'en'));
    }
  });

  it('says only "not found" for a project that is not there (its data is fetched early, issue 16)', async () => {
    await page.goto('/project/metadata?id=987654');
    await page.getByTestId('project-not-found').waitFor();
    // The early requests for the tab's values fail quietly: no error text beside the page.
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('#notistack-snackbar').count(), 0);
  });

  it('logged no page errors', () => {
    assert.deepEqual(problems.errors, []);
  });
});
