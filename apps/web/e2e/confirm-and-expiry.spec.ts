import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectAccessible,
  expectAlert,
  expectStep,
  fillIntro,
  PERSON,
  screenshot,
} from './support/funnel-page.js';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await expectStep(page, 'intro');
  await fillIntro(page, 'resident-abstract', { ...PERSON, names: {} });
  await page.getByRole('button', { name: 'Next' }).click();
  await expectStep(page, 'simpleVerification');
  await page.getByRole('button', { name: 'Payments app' }).click();
  await expectStep(page, 'confirm');
});

test('complete before approval shows "not approved yet", then succeeds after approval', async ({ page, ferry }) => {
  await page.getByRole('button', { name: 'Complete' }).click();
  await expectAlert(page, 'Not approved yet');
  await expect(page.getByRole('alertdialog')).toContainText('Approve the request in the provider app');
  await expectAccessible(page);
  await screenshot(page, 'alert-not-approved-yet');
  await dismissAlert(page);

  // Still on confirm, and focus is back on Complete so the person can press it again.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Approve the request');
  await expect(page.getByRole('button', { name: 'Complete' })).toBeFocused();

  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: 'Complete' }).click();
  await expectStep(page, 'done');
});

test('an expired authentication shows the alert and returns to the provider choice', async ({ page, ferry }) => {
  // The vendor's clock moves past the authentication's lifetime (300 s for VENDOR_A).
  await ferry.approveLatest('VENDOR_A');
  await ferry.advanceClock('VENDOR_A', 301_000);
  await page.getByRole('button', { name: 'Complete' }).click();

  await expectAlert(page, 'Authentication expired');
  await screenshot(page, 'alert-authentication-expired');
  await dismissAlert(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose how to verify your identity' })).toBeFocused();

  // Starting again from the provider choice works without retyping anything.
  await page.getByRole('button', { name: 'Messenger app' }).click();
  await expectStep(page, 'confirm');
  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: 'Complete' }).click();
  await expectStep(page, 'done');
});
