import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until no CSS transition or animation runs: axe reads colours as they are at that
 * moment, and a button fading from disabled grey to its colour (MUI: 250 ms) reads as a
 * contrast failure. */
export async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    for (let round = 0; round < 10; round++) {
      const running = document.getAnimations().filter((a) => a.playState === 'running');
      // Endless ones (spinners, skeletons) never finish; they do not change text colours.
      const ending = running.filter(
        (a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
      );
      if (ending.length === 0) return;
      await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/** axe (WCAG 2.0/2.1 A and AA) on the page's main content: the serious and critical findings. */
export async function seriousA11yProblems(page: Page, include: string = 'main'): Promise<string[]> {
  await settleAnimations(page);
  // Evaluated, not added as a script tag: the app's CSP allows no inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (scope) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(
      { include: [[scope]] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    )) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.length}× e.g. ${v.nodes[0]?.target.join(' ')}`);
  }, include);
}
