import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectAlert,
  expectStep,
  fillIntro,
  introFields,
  PERSON,
  screenshot,
} from './support/funnel-page.js';

test.beforeEach(async ({ page, t }) => {
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await fillIntro(page, t, 'resident-abstract', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await expectStep(page, t, 'simpleVerification');
  await page.getByRole('button', { name: t('providers.provider_c'), exact: true }).click();
  await expectStep(page, t, 'confirm');
});

test('complete before approval shows "not approved yet", then succeeds after approval', async ({
  page,
  ferry,
  language,
  t,
}) => {
  const complete = page.getByRole('button', { name: t('confirm.complete') });
  await complete.click();
  await expectAlert(page, t('alerts.notApprovedYet.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.notApprovedYet.message'));
  await expectAccessible(page);
  await screenshot(page, `${language}-alert-not-approved-yet`);
  await dismissAlert(page, t);

  // Still on confirm, and focus is back on Complete so the person can press it again.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(
    t('confirm.heading', { provider: t('providers.provider_c') }),
  );
  await expect(complete).toBeFocused();

  await ferry.approveLatest('VENDOR_A');
  await complete.click();
  await expectStep(page, t, 'done');
});

test('an expired authentication shows the alert and returns to the provider choice', async ({
  page,
  ferry,
  language,
  t,
}) => {
  // The vendor's clock moves past the authentication's lifetime (300 s for VENDOR_A).
  await ferry.approveLatest('VENDOR_A');
  await ferry.advanceClock('VENDOR_A', 301_000);
  await page.getByRole('button', { name: t('confirm.complete') }).click();

  await expectAlert(page, t('alerts.authenticationExpired.title'));
  // The server says VENDOR_A's approval window (300 s), and the alert names it.
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.authenticationExpired.message', { minutes: 5 }));
  await expectAccessible(page);
  await screenshot(page, `${language}-alert-authentication-expired`);
  await dismissAlert(page, t);
  await expect(page.getByRole('heading', { level: 2, name: t('verification.heading') })).toBeFocused();

  // Starting again from the provider choice works without retyping anything.
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');
});
