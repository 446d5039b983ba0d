import path from 'node:path';
import type { Page } from 'playwright-core';

const README_DIR = path.resolve(import.meta.dirname, '../../docs/console');

/**
 * The README's screenshots (docs/console/) are refreshed when asked, not by every run (a run should not
 * rewrite tracked files, and a full-page PNG costs a noticeable share of a console test):
 * `COMPLY_CONSOLE_SCREENSHOTS=1 npx vitest run test/console`.
 */
export async function readmeScreenshot(page: Page, name: string, fullPage = true): Promise<void> {
  if (process.env.COMPLY_CONSOLE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: path.join(README_DIR, name), fullPage });
}

/**
 * A view at one size, for a person checking a layout by eye: written to COMPLY_CONSOLE_LAYOUT_DIR when it is
 * set (the tests themselves check the layout by measuring it).
 */
export async function layoutScreenshot(page: Page, name: string, size: string): Promise<void> {
  const dir = process.env.COMPLY_CONSOLE_LAYOUT_DIR;
  if (!dir) return;
  await page.screenshot({ path: path.join(dir, `console-${name}-${size}.png`), fullPage: false });
}
