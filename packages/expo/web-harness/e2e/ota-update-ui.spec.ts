import type { Language } from '@ferry/contracts/languages';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../../../../test/support/browser/accessibility.js';
import { expect, test } from '../../../../test/support/browser/certificate-fixtures.js';
import { OTA_UPDATE_CATALOGUES } from '../../src/i18n/ota-update-catalogue.js';
import { screenshot, serveHarness } from './support/harness.js';
import { breaksInsideKoreanWords, textsOnScreen } from './support/text-lines.js';

/** Opens the OTA update UI over a plain app screen; `lang` is the app's choice, else the browser's. */
async function openOtaUi(page: Page, view: 'ota-banner' | 'ota-overlay', lang?: Language) {
  await serveHarness(page);
  await page.goto(`/native-harness/?${new URLSearchParams({ view, ...(lang ? { lang } : {}) })}`);
  await expect(
    page.getByTestId(view === 'ota-banner' ? 'ferry-notify-banner' : 'ferry-immediate-overlay'),
  ).toBeVisible();
}

/** What the banner says to a screen reader: the button's name (sentence + action) and the ✕'s name. */
async function expectBannerIn(page: Page, language: Language) {
  const words = OTA_UPDATE_CATALOGUES[language].banner;
  await expect(page.getByRole('button', { name: `${words.message} ${words.action}`, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: words.dismiss, exact: true })).toBeVisible();
  await expect(page.getByText(words.message, { exact: true })).toBeVisible();
  await expect(page.getByText(words.action, { exact: true })).toBeVisible();
}

// Untagged, so only the native-ko project runs these; each sets the device's (the browser's) locale.
for (const [locale, language] of [
  ['ko-KR', 'ko'],
  ['en-US', 'en'],
  ['ja-JP', 'en'],
] as const) {
  test.describe(`OTA update UI on a ${locale} device`, () => {
    test.use({ locale });

    test(`the Notify banner speaks ${language}; axe finds nothing`, async ({ page }) => {
      await openOtaUi(page, 'ota-banner');
      await expectBannerIn(page, language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const texts = await textsOnScreen(page);
      expect(texts.filter((text) => text.wordBreak !== 'keep-all').map((text) => text.text)).toEqual([]);
      expect(texts.flatMap(breaksInsideKoreanWords)).toEqual([]);
      await expectAccessible(page);
      if (locale !== 'ja-JP') await screenshot(page, `${language}-ota-banner`);
    });

    test(`the Immediate overlay speaks ${language}; axe finds nothing`, async ({ page }) => {
      await openOtaUi(page, 'ota-overlay');
      const updating = OTA_UPDATE_CATALOGUES[language].overlay.updating;
      await expect(page.getByTestId('ferry-immediate-overlay')).toHaveAttribute('aria-label', updating);
      await expect(page.getByText(updating, { exact: true })).toBeVisible();
      await expectAccessible(page);
      if (locale !== 'ja-JP') await screenshot(page, `${language}-ota-overlay`);
    });
  });
}

test.describe('OTA update UI: the app chooses the language', () => {
  test.use({ locale: 'ko-KR' });

  test('language="en" on a Korean device: English', async ({ page }) => {
    await openOtaUi(page, 'ota-banner', 'en');
    await expectBannerIn(page, 'en');
  });
});
