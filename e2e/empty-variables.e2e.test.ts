// Issue 28 item 5: variables no longer fail silently. In the metadata tab, in English and German:
// typing into an Off field sets Replace; "Insert variable" puts a variable at the caret; the fields
// with variables a picture may have no value for are named; a test image from a camera
// photographers.json does not list says "{photographer} had no value for camera serial 1234". The
// config files page explains photographers.json with an example. axe: 0 serious/critical; at
// 390 px nothing scrolls sideways.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { type Account, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { startServerWithIngest, type TestServer } from './support/server.ts';
import { newProject, rootFolderId, teamApi } from './support/team-api.ts';

const imagesDir = path.resolve(import.meta.dirname, '../../shared/data/images');

/** A JPEG whose XMP names camera serial `serial` (as a camera's own aux:SerialNumber). */
function pictureOfCamera(serial: string): string {
  const jpeg = fs.readFileSync(path.join(imagesDir, 'exiv2-empty.jpg'));
  const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" aux:SerialNumber="${serial}"/></rdf:RDF></x:xmpmeta>`;
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp)]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-e2e-')), 'CAMERA_1234.JPG');
  fs.writeFileSync(file, Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]));
  return file;
}

const credit = (page: Page): Locator =>
  page.getByTestId('xmp-input-description|0|x-default').getByRole('textbox');

async function noSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide at 390 px`);
}

describe('variables that can be empty', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: ReturnType<typeof watchProblems>;
  let projectId: number;
  let ftpPort: number;
  let ftpAccount: { username: string; password: string };
  const account: Account = newAccount('EmptyVariables');

  const openTab = async () => {
    await page.goto(`/project/metadata?id=${projectId}`);
    await page.getByTestId('metadata-tab').waitFor({ timeout: 20_000 });
  };
  const setLanguage = (language: 'en' | 'de') =>
    page.evaluate((lang) => localStorage.setItem('photorelay.language', lang), language);

  before(async () => {
    ({ server, ftpPort } = await startServerWithIngest());
    browser = await launchBrowser();
    context = await newContext(browser, server.url, { viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    problems = watchProblems(page);
    await registerVerified(server, page.request, account);
    await signIn(page, account);
    const api = await teamApi(page, server);
    const created = await newProject(api, 'Match day', await rootFolderId(api, 'projects'));
    projectId = created.id;
    ftpAccount = created.account;
    const photographers = Buffer.from(JSON.stringify({ '4021234': 'Jane Doe' }));
    await api.post('file', {
      name: 'photographers.json',
      content: `data:application/json;base64,${photographers.toString('base64')}`,
    });
  });

  after(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('typing into an Off field sets Replace; Insert variable puts {photographer} at the caret', async () => {
    await setLanguage('en');
    await openTab();
    const card = page.getByTestId('xmp-property-description');
    assert.equal(await card.getAttribute('data-mode'), 'off');
    const modeSet = page.waitForResponse(
      (r) => r.url().includes('/xmpvaluemode/description/mode/replace') && r.ok(),
    );
    await credit(page).click();
    await credit(page).pressSequentially('Photo:  / Agency');
    await modeSet;
    await card.and(page.locator('[data-mode="replace"]')).waitFor();
    // The caret goes between the two spaces, where the name belongs.
    for (let i = 0; i < ' / Agency'.length; i++) await credit(page).press('ArrowLeft');
    const saved = page.waitForResponse(
      (r) =>
        r.url().includes('/xmpvalue/description') &&
        r.request().method() === 'PUT' &&
        r.request().postDataJSON()?.value === 'Photo: {photographer} / Agency' &&
        r.ok(),
      { timeout: 15_000 },
    );
    await card.getByTestId('xmp-insert-variable').click();
    const menu = page.getByTestId('xmp-variable-menu');
    await menu.getByRole('menuitem', { name: /\{photographer\}/ }).click();
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await credit(page).inputValue(), 'Photo: {photographer} / Agency');
    await saved;
  });

  it('names the fields with such variables and the empty one of a test image (en), axe clean', async () => {
    await setLanguage('en');
    await openTab();
    const fields = page.getByTestId('xmp-variable-fields');
    await fields.getByText(/: \{photographer\}$/).waitFor();
    await page.getByTestId('hold-unresolved-variables').waitFor();
    await page.getByTestId('xmp-preview-input').setInputFiles(pictureOfCamera('1234'));
    await page
      .getByTestId('xmp-preview-empty-variable')
      .getByText('{photographer} had no value for camera serial 1234')
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(await seriousA11yProblems(page), []);
    await settledScreenshot(page, 'issue28-empty-variable-en-1366', { fullPage: false });
  });

  it('in German too, and at 390 px without sideways scrolling', async () => {
    await setLanguage('de');
    try {
      await openTab();
      await page.getByTestId('xmp-variable-fields').getByText('Felder mit Variablen').waitFor();
      await page
        .getByTestId('xmp-property-description')
        .getByRole('button', { name: 'Variable einfügen' })
        .waitFor();
      await page.getByTestId('xmp-preview-input').setInputFiles(pictureOfCamera('1234'));
      await page
        .getByTestId('xmp-preview-empty-variable')
        .getByText('{photographer} hatte keinen Wert für die Kamera-Seriennummer 1234')
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(await seriousA11yProblems(page), []);
      await settledScreenshot(page, 'issue28-empty-variable-de-1366', { fullPage: false });
      await page.setViewportSize({ width: 390, height: 844 });
      await openTab();
      await page.getByTestId('xmp-variable-fields').waitFor();
      await noSidewaysScroll(page);
      await settledScreenshot(page, 'issue28-empty-variable-de-390', { fullPage: false });
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
      await setLanguage('en');
    }
  });

  it('the config files page explains photographers.json with an example (en, de; 1366 and 390 px)', async () => {
    for (const [language, title] of [
      ['en', 'photographers.json: who took the picture'],
      ['de', 'photographers.json: Wer hat das Bild gemacht'],
    ] as const) {
      await setLanguage(language);
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/configfiles');
        const help = page.getByTestId('photographers-help');
        await help.getByText(title).waitFor({ timeout: 20_000 });
        await help.getByText('"4021234": "Jane Doe"').waitFor();
        assert.deepEqual(await seriousA11yProblems(page), [], `${language} ${width}`);
        if (width === 390) await noSidewaysScroll(page);
        await settledScreenshot(page, `issue28-photographers-help-${language}-${width}`);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await setLanguage('en');
  });

  it('the picture log names the empty variable of a picture from that camera (en, de)', async () => {
    await ftpUpload({
      host: '127.0.0.1',
      port: ftpPort,
      ...ftpAccount,
      filename: 'CAMERA_1234.JPG',
      content: fs.readFileSync(pictureOfCamera('1234')),
    });
    for (const [language, text] of [
      ['en', '{photographer} had no value for camera serial 1234'],
      ['de', '{photographer} hatte keinen Wert für die Kamera-Seriennummer 1234'],
    ] as const) {
      await setLanguage(language);
      await page.goto(`/project/protocol?id=${projectId}`);
      await page.getByTestId('picture-empty-variable').getByText(text).waitFor({ timeout: 30_000 });
      assert.deepEqual(await seriousA11yProblems(page), [], language);
      await settledScreenshot(page, `issue28-picture-log-empty-variable-${language}`, { fullPage: false });
    }
    await setLanguage('en');
  });

  it('logged no page errors', () => {
    assert.deepEqual(problems.errors, []);
  });
});
