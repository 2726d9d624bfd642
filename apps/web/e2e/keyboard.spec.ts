import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { expectStep, PERSON } from './support/funnel-page.js';

/** Presses Tab until `name`d control has focus (a person tabbing through the page). */
async function tabTo(page: Page, locator: ReturnType<Page['getByRole']>, limit = 25): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await locator.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${locator} with Tab`);
}

test('the whole funnel works with the keyboard alone', async ({ page, ferry }) => {
  await page.goto('/');
  await expectStep(page, 'intro');

  // Document: arrow keys move within the radio group.
  await tabTo(page, page.getByRole('radio', { name: 'Resident registration copy' }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Resident registration abstract' })).toBeChecked();

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('First 6 digits')).toBeFocused();
  await page.keyboard.type(PERSON.front);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Last 7 digits')).toBeFocused();
  await page.keyboard.type(PERSON.back);

  // Selects: arrow keys pick the option, as they do for a person.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Province or city')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('Province or city')).toHaveValue('서울특별시');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('District')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('District')).toHaveValue('종로구');

  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'simpleVerification');

  await tabTo(page, page.getByRole('button', { name: 'Bank certificate D' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'confirm');

  await ferry.approveLatest('VENDOR_A');
  await tabTo(page, page.getByRole('button', { name: 'Complete' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'done');

  await tabTo(page, page.getByRole('link', { name: /Open the PDF/ }));
  await tabTo(page, page.getByRole('button', { name: 'Request another certificate' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'intro');
  await expect(page.getByLabel('First 6 digits')).toHaveValue('');
});

test('an alert dialog takes focus, closes with Escape, and gives focus back', async ({ page }) => {
  await page.goto('/');
  await expectStep(page, 'intro');
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog').getByRole('button', { name: 'OK' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();
});
