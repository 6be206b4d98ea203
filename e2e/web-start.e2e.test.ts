// How the app starts (issue 16: the metadata tab's inputs in under 1 s). A deep link asks once
// for the session (index.html preloads it), the screen's code and first data come before the screen
// has rendered, each project tab loads its own code, a code file that cannot be loaded ends in the
// error screen, and the built files are cached for good while the page itself is revalidated.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, watchProblems } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { rootFolderId, type TeamApi, teamApi } from './support/team-api.ts';

describe('web app start', () => {
  let server: TestServer;
  let browser: Browser;
  let setup: BrowserContext;
  let api: TeamApi;
  let projectId: number;
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    setup = await newContext(browser, server.url);
    const page = await setup.newPage();
    const owner = newAccount('WebStart');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    api = await teamApi(page, server);
    const root = await rootFolderId(api, 'projects');
    ({ projectId } = await api.post<{ projectId: number }>('project', {
      name: 'Start',
      parentFolderId: root,
    }));
    storageState = await setup.storageState();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh context (empty HTTP cache) with the session, and every request its page makes. */
  async function freshPage(): Promise<{ page: Page; requests: Request[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ baseURL: server.url, storageState, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    return { page, requests, close: () => context.close() };
  }
  const paths = (requests: Request[]) => requests.map((request) => new URL(request.url()).pathname);
  const count = (requests: Request[], path: string) => paths(requests).filter((p) => p === path).length;

  it('a deep link to the metadata tab asks once for the session, the project and the tab data', async () => {
    const { page, requests, close } = await freshPage();
    const problems = watchProblems(page);
    await page.goto(`/project/metadata?id=${projectId}`);
    await page.getByTestId('metadata-tab').locator('[data-testid^="xmp-input-"] input').first().waitFor();
    const team = `/api/${api.team}`;
    assert.equal(count(requests, '/api/user/info'), 1, 'the preloaded session answer is used');
    assert.equal(count(requests, `${team}/project/${projectId}`), 1);
    assert.equal(count(requests, `${team}/xmpproperties`), 1);
    assert.equal(count(requests, `${team}/project/${projectId}/xmpvalues`), 1);
    // The tab's code, not the other tabs' (their libraries load with them).
    const scripts = paths(requests).filter((p) => p.startsWith('/assets/'));
    assert.ok(
      scripts.some((p) => /\/metadata-tab-[\w-]+\.js$/.test(p)),
      'the tab code',
    );
    assert.ok(!scripts.some((p) => /\/(protocol|overview|destinations)-tab-/.test(p)), scripts.join());
    assert.deepEqual(problems.errors, []);
    await close();
  });

  it('each project tab loads its code when opened', async () => {
    const { page, close } = await freshPage();
    const problems = watchProblems(page);
    await page.goto(`/project/overview?id=${projectId}`);
    await page.getByTestId('project-tab-overview').waitFor();
    await page.getByTestId('project-tab-script').click();
    await page.getByTestId('script-tab').waitFor();
    await page.getByTestId('project-tab-protocol').click();
    await page.getByTestId('protocol-tab').waitFor();
    await page.getByTestId('project-tab-metadata').click();
    await page.getByTestId('metadata-tab').locator('[data-testid^="xmp-input-"] input').first().waitFor();
    assert.deepEqual(problems.errors, []);
    await close();
  });

  it('a code file that cannot be loaded ends in the error screen, and a reload recovers', async () => {
    const { page, close } = await freshPage();
    await page.route(/\/assets\/metadata-tab-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`/project/metadata?id=${projectId}`);
    await page.getByTestId('fatal-error-detail').waitFor();
    await page.unroute(/\/assets\/metadata-tab-[\w-]+\.js$/);
    await page.reload();
    await page.getByTestId('metadata-tab').waitFor();
    await close();
  });

  it('keeps the built files for good and asks for the page again', async () => {
    const html = await fetch(`${server.url}/project/metadata?id=${projectId}`);
    assert.match(html.headers.get('cache-control') ?? '', /no-cache/);
    const text = await html.text();
    assert.match(text, /<link rel="preload" href="\/api\/user\/info" as="fetch" crossorigin="anonymous"/);
    const script = text.match(/src="(\/assets\/index-[\w-]+\.js)"/)?.[1];
    assert.ok(script, 'the entry script');
    const asset = await fetch(`${server.url}${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    // Files outside assets/ keep their names across builds: revalidated.
    const icon = await fetch(`${server.url}/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.doesNotMatch(icon.headers.get('cache-control') ?? '', /immutable/);
  });
});
