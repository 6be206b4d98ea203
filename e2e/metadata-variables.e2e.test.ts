// Issue 16 item 6: the variables are offered in every text field of the metadata tab, not only
// in debug mode. Typing "{" opens a menu; a choice completes "{name}" and the caret stays after it.
import assert from 'node:assert/strict';
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
import { freePort, startServer, type TestServer } from './support/server.ts';

const input = (page: Page, key: string): Locator => page.getByTestId(`xmp-input-${key}`).getByRole('textbox');

async function chooseReplace(page: Page, propertyId: string) {
  await page.getByTestId(`xmp-mode-${propertyId}`).getByRole('combobox').click();
  const saved = page.waitForResponse(
    (response) => response.url().includes(`/xmpvaluemode/${propertyId}/mode/`) && response.ok(),
  );
  await page.getByRole('option', { name: /^(Replace|Ersetzen)/ }).click();
  await saved;
}

describe('variables in the metadata tab', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: ReturnType<typeof watchProblems>;
  let projectId: number;
  const account: Account = newAccount('Variables');

  const openTab = async () => {
    await page.goto(`/project/metadata?id=${projectId}`);
    await page.getByTestId('metadata-tab').waitFor({ timeout: 20_000 });
  };

  before(async () => {
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    context = await newContext(browser, server.url, { viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchProblems(page);
    await registerVerified(server, page.request, account);
    await signIn(page, account);
    const team = await currentTeamOf(page);
    const tree = await (await page.request.get(`${server.url}/api/${team}/folders`)).json();
    const root = (tree.folders as Array<{ id: number; type: string; isRoot: boolean }>).find(
      (node) => node.isRoot && node.type === 'projects',
    );
    assert.ok(root, 'the team has a projects root');
    const created = await page.request.post(`${server.url}/api/${team}/project`, {
      headers: jsonHeaders(server),
      data: { name: 'Variables', parentFolderId: root.id },
    });
    assert.ok(created.ok(), await created.text());
    projectId = (await created.json()).projectId;
  });

  after(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('typing "{" in a text field offers the variables; a choice completes it and is saved', async () => {
    await openTab();
    await chooseReplace(page, 'headline');
    const headline = input(page, 'headline|0|x-default');
    await headline.click();
    await headline.pressSequentially('Goal in ');
    await headline.press('{');
    const menu = page.getByTestId('xmp-variable-menu');
    await menu.getByRole('menuitem', { name: /\{serial\}/ }).waitFor();
    await menu.getByRole('menuitem', { name: /\{filename\}/ }).waitFor();
    await screenshot(page, 'metadata-variable-menu', { fullPage: false });
    const saved = page.waitForResponse(
      (response) =>
        response.url().includes('/xmpvalue/headline') &&
        response.request().method() === 'PUT' &&
        response.ok(),
      { timeout: 10_000 },
    );
    await menu.getByRole('menuitem', { name: /\{city\}/ }).click();
    await menu.waitFor({ state: 'hidden' });
    // The caret is after the variable: typing goes on behind it.
    await headline.pressSequentially(' today');
    assert.equal(await headline.inputValue(), 'Goal in {city} today');
    assert.deepEqual((await saved).request().postDataJSON(), { value: 'Goal in {city} today' });
  });

  it('Escape keeps a plain brace, and "\\{" (a written brace) opens no menu', async () => {
    await openTab();
    await chooseReplace(page, 'title');
    const title = input(page, 'title|0|x-default');
    await title.click();
    await title.press('{');
    const menu = page.getByTestId('xmp-variable-menu');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await title.fill('a \\');
    await title.press('End');
    await title.press('{');
    await page.waitForTimeout(300);
    assert.equal(await menu.count(), 0);
    assert.equal(await title.inputValue(), 'a \\{');
  });

  it('offers them in German too', async () => {
    await page.evaluate(() => localStorage.setItem('photorelay.language', 'de'));
    try {
      await openTab();
      const caption = input(page, 'description|0|x-default');
      await chooseReplace(page, 'description');
      await caption.click();
      await caption.press('{');
      const menu = page.getByTestId('xmp-variable-menu');
      await menu.getByText('Aus dem Bild').waitFor();
      await menu.getByRole('menuitem', { name: /^\{serial\}\s*Seriennummer der Kamera$/ }).waitFor();
      await page.keyboard.press('Escape');
    } finally {
      await page.evaluate(() => localStorage.setItem('photorelay.language', 'en'));
    }
  });

  it('logged no page errors', () => {
    assert.deepEqual(problems.errors, []);
  });
});
