import { defineConfig } from '@playwright/test';
import type { LanguageOptions } from '../../../test/support/browser/certificate-fixtures.js';
import { BROWSER_SUITE } from '../../../test/support/browser/suite-config.js';

/**
 * The native certificate screens of @ferry/expo rendered by react-native-web
 * (test/support/browser/suite-config.ts), at phone size, against a real Ferry server with the vendor
 * simulators: the same components an app mounts, exercised against the real service.
 */
export default defineConfig<LanguageOptions>(BROWSER_SUITE, {
  // A phone: iPhone 12–15 logical size, with touch (2x keeps the screenshots small).
  use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  // Korean first: every case in Korean; English takes one path per vendor (see the spec).
  projects: [
    { name: 'native-ko', use: { language: 'ko' } },
    { name: 'native-en', use: { language: 'en' }, grep: /@english/ },
  ],
});
