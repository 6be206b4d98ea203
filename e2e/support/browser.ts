// Chromium through playwright-core, with screenshots to /work/main/screenshots (gitignored).
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { repoRoot } from './server.ts';

export const screenshotDir = path.join(repoRoot, 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export type PageProblems = { errors: string[] };

/**
 * A fresh context (own cookies and storage) in English with a desktop viewport. Its person has
 * chosen the app's language of the locale in this browser (as the EN/DE switch remembers it), so
 * the app keeps that language after signing in; `languageChosen: false` is a browser where nobody
 * chose one yet, which shows the account's stored language once signed in.
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  options: { locale?: string; viewport?: { width: number; height: number }; languageChosen?: boolean } = {},
): Promise<BrowserContext> {
  const locale = options.locale ?? 'en-US';
  const context = await browser.newContext({
    baseURL,
    locale,
    viewport: options.viewport ?? { width: 1366, height: 860 },
    deviceScaleFactor: 1,
  });
  if (options.languageChosen ?? true)
    await context.addInitScript(
      (language) => {
        if (!localStorage.getItem('photorelay.language'))
          localStorage.setItem('photorelay.language', language);
      },
      locale.startsWith('de') ? 'de' : 'en',
    );
  return context;
}

/** Records uncaught page errors and console errors so a test can assert there were none. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { errors: [] };
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Expected answers of the API (e.g. 401 on a wrong password) are logged by Chromium as errors.
    if (/Failed to load resource: the server responded with a status of (4\d\d)/.test(text)) return;
    problems.errors.push(`console: ${text}`);
  });
  return problems;
}

export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  // Let transitions and fonts settle so the picture shows the final state.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  return file;
}
