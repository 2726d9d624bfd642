import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectAlert,
  expectNoSidewaysScroll,
  expectStep,
  fillIntro,
  introFields,
  PERSON,
} from './support/funnel-page.js';

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

test('docs: what the funnel says when something is wrong, and how it resumes (Korean)', async ({
  page,
  ferry,
  language,
  t,
}) => {
  test.skip(process.env.FERRY_DOCS_SCREENSHOTS !== '1', 'set FERRY_DOCS_SCREENSHOTS=1 to refresh docs/images/web');
  test.skip(language !== 'ko', 'the Korean pictures are the reviewed copy');
  fs.mkdirSync(DOCS_DIR, { recursive: true });
  const shot = async (name: string) => {
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: path.join(DOCS_DIR, `ko-${name}.png`), fullPage: true, animations: 'disabled' });
  };
  const fields = introFields(page, t);

  // An impossible date, a short back part, a letter typed into the back part.
  await page.goto('/');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, front: '901301', back: '12345', names: {} });
  await fields.next.click();
  await expect(fields.front).toHaveAttribute('aria-invalid', 'true');
  await fields.back.pressSequentially('a');
  await expect(page.getByText(t('validation.digitsOnly'))).toBeVisible();
  await shot('7-intro-what-is-wrong');

  // A lost connection on the provider choice.
  await fields.front.fill(PERSON.front);
  await fields.back.fill(PERSON.back);
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
  await page.route('**/v2/user/certificate/**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: t('providers.provider_b'), exact: true }).click();
  await expectAlert(page, t('alerts.network.title'));
  await shot('8-alert-network');
  await dismissAlert(page, t);
  await page.unroute('**/v2/user/certificate/**');

  // A reload while waiting for approval: the back part is asked for again, and why.
  await page.getByRole('button', { name: t('providers.provider_b'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await page.reload();
  await expect(page.getByLabel(t('intro.back'), { exact: true })).toBeVisible();
  await page
    .getByRole('heading', { level: 2 })
    .first()
    .evaluate((heading) => (heading as HTMLElement).blur());
  await shot('9-confirm-after-reload');

  // An expired authentication names the vendor's window.
  await ferry.approveLatest('VENDOR_A');
  await ferry.advanceClock('VENDOR_A', 301_000);
  await page.getByLabel(t('intro.back'), { exact: true }).fill(PERSON.back);
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectAlert(page, t('alerts.authenticationExpired.title'));
  await shot('10-alert-authentication-expired');
  await dismissAlert(page, t);

  // Issued, then reloaded: the link for what is left of it, and until when.
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');
  await page.reload();
  await expect(page.getByRole('link', { name: new RegExp(t('done.open')) })).toBeVisible();
  await page
    .getByRole('heading', { level: 2 })
    .first()
    .evaluate((heading) => (heading as HTMLElement).blur());
  await shot('11-done-after-reload');

  // The dead end of an unknown assignment, with its way back.
  await page.goto('/?assignmentId=00000000-0000-4000-8000-000000000000');
  await expectAlert(page, t('alerts.assignmentNotFound.title'));
  await dismissAlert(page, t);
  await page
    .getByRole('heading', { level: 2 })
    .first()
    .evaluate((heading) => (heading as HTMLElement).blur());
  await shot('12-assignment-not-found');
});
