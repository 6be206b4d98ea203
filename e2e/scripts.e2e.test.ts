// The script tab and the test image (spec §2 'Project tabs: Script', Overview test image, §8):
// a script with a syntax error is refused with its position and the line marked, the fixed one
// is stored, and a test image dropped on the overview comes back with the script's caption.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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

const testImage = path.resolve(repoRoot, '../shared/data/images/exiv2-FurnaceCreekInn.jpg');

describe('project script', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: ReturnType<typeof watchProblems>;
  let projectId: number;
  let projectsRootId: number;
  const account: Account = newAccount('Scripts');

  before(async () => {
    server = await startServer({ FTP_PORT: String(await freePort()), SFTP_PORT: String(await freePort()) });
    browser = await launchBrowser();
    context = await newContext(browser, server.url, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
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
      data: { name: 'Scripted desk', parentFolderId: root.id },
    });
    assert.equal(created.status(), 200);
    projectId = (await created.json()).projectId;
    projectsRootId = root.id;
    // A destination the script can skip: another project (delivery needs no FTP server).
    const web = await page.request.post(`${server.url}/api/${team}/project`, {
      headers: jsonHeaders(server),
      data: { name: 'Web', parentFolderId: root.id },
    });
    assert.equal(web.status(), 200);
    const routed = await page.request.post(
      `${server.url}/api/${team}/project/${projectId}/destinationproject/${(await web.json()).projectId}`,
      { headers: jsonHeaders(server), data: {} },
    );
    assert.equal(routed.status(), 200);
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('refuses a syntax error with its position, stores the fix, and the test image gets its caption', async () => {
    await page.goto(`/project/script?id=${projectId}`);
    await page.getByTestId('script-tab').waitFor({ timeout: 20_000 });
    await page.getByTestId('script-file-input').setInputFiles({
      name: 'caption.script',
      mimeType: 'text/plain',
      buffer: Buffer.from("// caption from the file name\nmeta.set('caption', 'Scripted ' +);\n"),
    });
    const error = page.getByTestId('script-error');
    await error.getByText(/^Something went wrong:/).waitFor({ timeout: 30_000 });
    assert.match((await error.textContent()) ?? '', /2:\d+/);
    assert.match((await page.getByTestId('script-error-line').textContent()) ?? '', /^2meta\.set/);
    await screenshot(page, '90-script-error', { fullPage: false });

    await page.getByTestId('script-file-input').setInputFiles({
      name: 'caption.script',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        "// caption from the file name\nmeta.set('caption', 'Scripted ' + file.name);\nfile.name = 'desk-' + file.name;\nskip('Web');\nlog('captioned');\n",
      ),
    });
    await page.getByText('Script upload finished.').waitFor({ timeout: 30_000 });
    await page
      .getByTestId('script-source')
      .getByText("meta.set('caption', 'Scripted ' + file.name);")
      .waitFor();
    assert.equal(await page.getByTestId('script-error-line').count(), 0);

    await page.goto(`/project/overview?id=${projectId}`);
    await page.getByTestId('xmp-preview-input').setInputFiles(testImage);
    await page.getByTestId('xmp-preview-result').waitFor({ timeout: 30_000 });
    await page.getByTestId('processing-report').waitFor();
    assert.match((await page.getByTestId('report-log').textContent()) ?? '', /captioned/);
    assert.match(
      (await page.getByTestId('report-filename').textContent()) ?? '',
      /desk-exiv2-FurnaceCreekInn\.jpg/,
    );
    assert.match((await page.getByTestId('report-skipped').textContent()) ?? '', /Web/);
    // Before and after side by side: the caption row shows the new text only after.
    const captionRow = page.getByTestId('report-metadata').getByRole('row', { name: /^description/ });
    const cells = await captionRow.getByRole('cell').allTextContents();
    assert.equal(cells[0], 'description');
    assert.doesNotMatch(cells[1] ?? '', /Scripted/);
    assert.equal(cells[2], 'Scripted exiv2-FurnaceCreekInn.jpg');
    const href = await page.getByTestId('xmp-preview-download').getAttribute('href');
    assert.ok(href?.includes('/command/downloadresultfile/'), href ?? 'no link');
    const result = await page.request.get(`${server.url}${href}`);
    const bytes = Buffer.from(await result.body());
    assert.ok(
      bytes.includes(Buffer.from('Scripted exiv2-FurnaceCreekInn.jpg')),
      'the result carries the caption',
    );
    await page.getByTestId('processing-report').scrollIntoViewIfNeeded();
    await screenshot(page, '91-script-test-image', { fullPage: false });
    assert.deepEqual(problems.errors, []);
  });

  it('a folder of projects has the same upload, download and remove', async () => {
    await page.goto(`/folder?id=${projectsRootId}`);
    const panel = page.getByTestId('script-panel');
    await panel.waitFor({ timeout: 20_000 });
    const source = "meta.append('caption', '(folder)');\n";
    await panel.getByTestId('script-file-input').setInputFiles({
      name: 'folder.script',
      mimeType: 'text/plain',
      buffer: Buffer.from(source),
    });
    await page.getByText('Script upload finished.').waitFor({ timeout: 30_000 });
    await panel.getByTestId('script-source').getByText("meta.append('caption', '(folder)');").waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByTestId('script-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'folder.script');
    const saved = await download.path();
    assert.equal(readFileSync(saved, 'utf8'), source);
    await screenshot(page, '92-folder-script', { fullPage: false });

    await panel.getByTestId('script-remove').click();
    await page.getByText('Do you really want to remove the script from this project?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await panel.getByText('No script yet. Upload a .script file.').waitFor();
    assert.equal(await panel.getByTestId('script-source').count(), 0);
    assert.deepEqual(problems.errors, []);
  });
});
