import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/**
 * Full-page PNGs saved by name into `dir` (a suite's test-results/screenshots: test artifacts,
 * gitignored). The returned function resolves with the file's path.
 */
export function screenshotsIn(dir: string): (page: Page, name: string) => Promise<string> {
  return async (page, name) => {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  };
}
