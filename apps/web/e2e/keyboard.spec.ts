import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.js';
import { expectStep, introFields, PERSON } from './support/funnel-page.js';

/** Presses Tab until `name`d control has focus (a person tabbing through the page). */
async function tabTo(page: Page, locator: ReturnType<Page['getByRole']>, limit = 25): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await locator.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${locator} with Tab`);
}

test('the whole funnel works with the keyboard alone', async ({ page, ferry, t }) => {
  const fields = introFields(page, t);
  await page.goto('/');
  await expectStep(page, t, 'intro');

  // Document: arrow keys move within the radio group.
  await tabTo(page, page.getByRole('radio', { name: t('documents.resident-certificate') }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: t('documents.resident-abstract') })).toBeChecked();

  await page.keyboard.press('Tab');
  await expect(fields.front).toBeFocused();
  await page.keyboard.type(PERSON.front);
  await page.keyboard.press('Tab');
  await expect(fields.back).toBeFocused();
  await page.keyboard.type(PERSON.back);

  // Selects: arrow keys pick the option, as they do for a person.
  await page.keyboard.press('Tab');
  await expect(fields.sido).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(fields.sido).toHaveValue('서울특별시');
  await page.keyboard.press('Tab');
  await expect(fields.sigg).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(fields.sigg).toHaveValue('종로구');

  await tabTo(page, fields.next);
  await page.keyboard.press('Enter');
  await expectStep(page, t, 'simpleVerification');

  await tabTo(page, page.getByRole('button', { name: t('providers.provider_d'), exact: true }));
  await page.keyboard.press('Enter');
  await expectStep(page, t, 'confirm');

  await ferry.approveLatest('VENDOR_A');
  await tabTo(page, page.getByRole('button', { name: t('confirm.complete') }));
  await page.keyboard.press('Enter');
  await expectStep(page, t, 'done');

  await tabTo(page, page.getByRole('link', { name: t('done.open') }));
  await tabTo(page, page.getByRole('button', { name: t('done.restart') }));
  await page.keyboard.press('Enter');
  await expectStep(page, t, 'intro');
  await expect(fields.front).toHaveValue('');
});

test('an alert dialog takes focus, closes with Escape, and gives focus back', async ({ page, t }) => {
  // An alert comes from a call (a wrong detail on intro is shown inline): complete before approving.
  const fields = introFields(page, t);
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await fields.front.fill(PERSON.front);
  await fields.back.fill(PERSON.back);
  await fields.sido.selectOption(PERSON.sido);
  await fields.sigg.selectOption(PERSON.sigg);
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await tabTo(page, page.getByRole('button', { name: t('confirm.complete') }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog').getByRole('button', { name: t('dialog.ok') })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect(page.getByRole('button', { name: t('confirm.complete') })).toBeFocused();
});
