import { createCertificateI18n, SUPPORTED_LANGUAGES, translatorOf } from '@ferry/certificate-flow';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { expect, test } from './support/fixtures.js';
import { expectStep, introFields, PERSON } from './support/funnel-page.js';

test('the page is in the chosen language, with lang, title, service heading and favicon', async ({
  page,
  language,
  t,
}) => {
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page).toHaveTitle(t('service.title'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('service.heading'));
  await expect(page.getByRole('button', { name: t(`language.${language}`) })).toHaveAttribute('aria-pressed', 'true');

  const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
  const icon = await page.request.get(favicon ?? '');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});

test('switching language changes every word at once, keeps what was typed, and is remembered', async ({
  page,
  language,
  t,
}) => {
  const other = SUPPORTED_LANGUAGES.find((l) => l !== language)!;
  const tOther = translatorOf(createCertificateI18n(other));
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await introFields(page, t).front.fill(PERSON.front);

  await page.getByRole('button', { name: tOther(`language.${other}`) }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', other);
  await expect(page).toHaveTitle(tOther('service.title'));
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(tOther('intro.heading'));
  await expect(introFields(page, tOther).front).toHaveValue(PERSON.front);
  await expectAccessible(page);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', other);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(tOther('intro.heading'));
  await expect(page.getByRole('button', { name: tOther(`language.${other}`) })).toHaveAttribute('aria-pressed', 'true');
});

test('at 390 px the two number fields share one row, each wide enough, with no sideways scrolling', async ({
  page,
  t,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await introFields(page, t).next.click(); // errors shown: the row must still hold
  const front = await introFields(page, t).front.boundingBox();
  const back = await introFields(page, t).back.boundingBox();
  expect(front && back).toBeTruthy();
  expect(Math.abs(front!.y - back!.y)).toBeLessThan(1);
  expect(Math.abs(front!.height - back!.height)).toBeLessThan(1);
  expect(front!.width).toBeGreaterThan(110);
  expect(back!.width).toBeGreaterThan(110);
  expect(back!.x).toBeGreaterThan(front!.x + front!.width);
  expect(back!.x + back!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a link to an unknown assignment explains itself in the page language, under the service heading', async ({
  page,
  t,
}) => {
  await page.goto('/?assignmentId=00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alertdialog').getByRole('heading')).toHaveText(t('alerts.assignmentNotFound.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.assignmentNotFound.message'));
  await expectAccessible(page);
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: t('dialog.ok') })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('service.heading'));
  await expect(page.getByText(t('alerts.assignmentNotFound.message'))).toBeVisible();
});
