import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { screenshotsIn } from '../../../../../test/support/browser/screenshots.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Screenshots of every step, kept as test artifacts (gitignored). */
export const screenshot = screenshotsIn(fileURLToPath(new URL('../../test-results/screenshots', import.meta.url)));

/**
 * Serves the built harness under /native-harness/ on the Ferry server's origin (from disk, through
 * Playwright's routing), so the screens call the real API same-origin, as an app calls its server.
 */
export async function serveHarness(page: Page): Promise<void> {
  await page.route('**/native-harness/**', async (route) => {
    const relative = new URL(route.request().url()).pathname.replace(/^\/native-harness\/?/, '') || 'index.html';
    const file = path.join(DIST, relative);
    if (!file.startsWith(DIST) || !fs.existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    await route.fulfill({
      status: 200,
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      body: fs.readFileSync(file),
    });
  });
}

/** The browser dialogs the harness turns Alert.alert into: each is recorded, then accepted (OK). */
export function recordAlerts(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(dialog.message());
    void dialog.accept();
  });
  return seen;
}

/** Opens the harness as the menu (VENDOR_A) or an assignment deep link, in the test's language. */
export async function openFunnel(page: Page, language: string, assignmentId: string | null): Promise<void> {
  await serveHarness(page);
  const query = new URLSearchParams({ lang: language, ...(assignmentId ? { assignmentId } : {}) });
  await page.goto(`/native-harness/?${query}`);
  await expect(page.getByTestId('certificate-intro')).toBeVisible();
}
