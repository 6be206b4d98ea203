// Screenshots of settled pages: scrolled to the top (a full-page shot of a scrolled page draws the
// sticky bar in the middle) and, on request, after earlier snackbars have gone.
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';

export async function settledScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; waitForSnackbars?: boolean } = {},
): Promise<string> {
  if (options.waitForSnackbars ?? true) {
    await page
      .locator('.notistack-Snackbar')
      .first()
      .waitFor({ state: 'detached', timeout: 9000 })
      .catch(() => {});
  }
  if (options.fullPage ?? true) await page.evaluate(() => window.scrollTo(0, 0));
  return screenshot(page, name, { fullPage: options.fullPage });
}
