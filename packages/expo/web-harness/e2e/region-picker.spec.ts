import { expectAccessible } from '../../../../test/support/browser/accessibility.js';
import { expect, test } from '../../../../test/support/browser/certificate-fixtures.js';
import { openFunnel, screenshot } from './support/harness.js';

test('region picker: a dialog named after its field, with a close button from the catalogue; axe finds nothing', {
  tag: '@english',
}, async ({ page, t, language }) => {
  await openFunnel(page, language, null);
  const trigger = page.getByTestId('certificate-sido');
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');
  await trigger.click();

  const dialog = page.getByRole('dialog', { name: t('intro.sido'), exact: true });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(dialog.getByRole('radio', { name: '서울특별시', exact: true })).toBeVisible();
  const close = dialog.getByRole('button', { name: t('dialog.close'), exact: true });
  await expect(close).toHaveText(t('dialog.close'));
  if (language === 'ko') await expect(close).toHaveText('닫기');
  await expectAccessible(page);
  await screenshot(page, `${language}-region-picker`);

  // The button closes it and nothing is chosen.
  await close.click();
  await expect(dialog).toBeHidden();
  await expect(trigger).toHaveText(t('intro.sidoPlaceholder'));
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');

  // So does Escape, the web's way to close a dialog.
  await trigger.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The district's list is named after its own field.
  await trigger.click();
  await dialog.getByRole('radio', { name: '서울특별시', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('certificate-sigg').click();
  const districts = page.getByRole('dialog', { name: t('intro.sigg'), exact: true });
  await expect(districts).toBeVisible();
  await expectAccessible(page);
  await districts.getByRole('button', { name: t('dialog.close'), exact: true }).click();
  await expect(districts).toBeHidden();
});
