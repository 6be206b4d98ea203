// The set-up most browser tests share: one server (with FTP/SFTP ingest when asked) and one
// Chromium per describe block, pages in fresh contexts (own cookies and storage, a language and a
// viewport) closed at the end, and an owner who signs up, verifies and signs in.
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, addToTeam, newAccount, registerVerified, signIn } from './accounts.ts';
import { launchBrowser, newContext } from './browser.ts';
import { startServer, startServerWithIngest, type TestServer } from './server.ts';
import { type TeamApi, teamApi } from './team-api.ts';

export type Language = 'en' | 'de';

export type PageOptions = {
  language?: Language;
  viewport?: { width: number; height: number };
  /** Playwright's default timeout for the page's waits (ms). */
  timeout?: number;
  /** Signed in as on that page (its cookies), e.g. to see a screen in another language and width. */
  sessionOf?: Page;
  /** false: nobody chose a language in this browser yet (see newContext). */
  languageChosen?: boolean;
};

export interface BrowserSuite {
  /** Set once the suite's `before` ran. */
  server: TestServer;
  browser: Browser;
  /** The camera FTP port of the server (with `ingest` only). */
  ftpPort: number;
  /** A page in a new context of its own, closed with the suite. */
  openPage(options?: PageOptions): Promise<Page>;
}

/** Registers the describe block's `before` and `after`: call it first inside `describe`. */
export function browserSuite(options: { ingest?: boolean } = {}): BrowserSuite {
  const contexts: BrowserContext[] = [];
  const suite = {
    ftpPort: 0,
    async openPage({
      language = 'en',
      viewport,
      timeout = 20_000,
      sessionOf,
      languageChosen,
    }: PageOptions = {}) {
      const context = await newContext(suite.browser, suite.server.url, {
        locale: language === 'de' ? 'de-DE' : 'en-US',
        viewport,
        languageChosen,
      });
      contexts.push(context);
      if (sessionOf) await context.addCookies(await sessionOf.context().cookies());
      const page = await context.newPage();
      page.setDefaultTimeout(timeout);
      return page;
    },
  } as BrowserSuite;
  before(async () => {
    if (options.ingest) {
      const started = await startServerWithIngest();
      suite.server = started.server;
      suite.ftpPort = started.ftpPort;
    } else suite.server = await startServer();
    suite.browser = await launchBrowser();
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/** A new owner (their own team) signed up, verified and signed in on `page`, with the team API. */
export async function signUpOwner(
  server: TestServer,
  page: Page,
  prefix: string,
  company?: string,
): Promise<{ account: Account; api: TeamApi }> {
  const account = newAccount(prefix, company);
  await registerVerified(server, page.request, account);
  await signIn(page, account);
  return { account, api: await teamApi(page, server) };
}

/**
 * An owner signed in on `page` and a photographer who joined the owner's team by the mailed
 * invitation (in `language`); answers the owner's team API.
 */
export async function ownerAndPhotographer(
  server: TestServer,
  page: Page,
  owner: Account,
  photographer: Account,
  language: Language = 'en',
): Promise<TeamApi> {
  await registerVerified(server, page.request, owner);
  await registerVerified(server, page.request, photographer);
  await signIn(page, owner);
  const api = await teamApi(page, server);
  await addToTeam(server, page.request, api, photographer.email, language);
  return api;
}

/** The 15th of next month (UTC): dd.mm.yyyy as the event dialog takes it, yyyy-mm-dd as pages name days. */
export function nextMonthDay() {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15));
  const [y, m, d] = [day.getUTCFullYear(), String(day.getUTCMonth() + 1).padStart(2, '0'), '15'];
  return { text: `${d}.${m}.${y}`, iso: `${y}-${m}-${d}` };
}
