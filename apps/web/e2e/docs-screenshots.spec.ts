import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures.js';
import { dismissAlert, expectAlert, expectStep, fillIntro, introFields, PERSON } from './support/funnel-page.js';

/**
 * The phone-size pictures in docs/web.md, one set per language. Written only when asked
 * (FERRY_DOCS_SCREENSHOTS=1), so an ordinary test run never rewrites tracked files:
 *   FERRY_DOCS_SCREENSHOTS=1 npx playwright test -c apps/web/playwright.config.ts docs-screenshots
 */
const DOCS_DIR = fileURLToPath(new URL('../../../docs/images/web', import.meta.url));

test('docs: the funnel at 390 px, every step', async ({ page, ferry, language, t }) => {
  test.skip(process.env.FERRY_DOCS_SCREENSHOTS !== '1', 'set FERRY_DOCS_SCREENSHOTS=1 to refresh docs/images/web');
  fs.mkdirSync(DOCS_DIR, { recursive: true });
  const shot = (name: string) =>
    page.screenshot({ path: path.join(DOCS_DIR, `${language}-${name}.png`), fullPage: true, animations: 'disabled' });
  const fields = introFields(page, t);

  await page.goto('/');
  await expectStep(page, t, 'intro');
  await fields.next.click();
  await expect(fields.front).toHaveAttribute('aria-invalid', 'true');
  await shot('1-intro-errors');

  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await fields.back.blur();
  await shot('2-intro');
  await fields.next.click();

  await expectStep(page, t, 'simpleVerification');
  await shot('3-simple-verification');
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();

  await expectStep(page, t, 'confirm');
  await shot('4-confirm');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectAlert(page, t('alerts.notApprovedYet.title'));
  await shot('5-alert-not-approved-yet');
  await dismissAlert(page, t);

  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');
  await shot('6-done');
});
