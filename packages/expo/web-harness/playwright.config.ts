import { defineConfig } from '@playwright/test';
import { DEBIAN_CHROMIUM } from '../../../test/support/debian-chromium.js';
import { HANG_GUARD_MS } from '../../../test/support/hang-guard.cjs';
import type { LanguageOptions } from './e2e/support/fixtures.js';

/**
 * The native certificate screens of @ferry/expo rendered by react-native-web in Debian's Chromium
 * (never a downloaded browser), at phone size, against a real Ferry server with the vendor
 * simulators: the same components an app mounts, exercised against the real service.
 */
export default defineConfig<LanguageOptions>({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
  // One worker: the tests drive the simulators' shared "latest pending session" control.
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI === 'true',
  retries: 0,
  // A hang guard, not a speed requirement: every step waits on the page (web-first assertions).
  timeout: HANG_GUARD_MS,
  expect: { timeout: HANG_GUARD_MS },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: DEBIAN_CHROMIUM,
    // A phone: iPhone 12–15 logical size, with touch (2x keeps the screenshots small).
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    actionTimeout: 0,
    navigationTimeout: 0,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  // Korean first: every case in Korean; English takes one path per vendor (see the spec).
  projects: [
    { name: 'native-ko', use: { language: 'ko' } },
    { name: 'native-en', use: { language: 'en' }, grep: /@english/ },
  ],
});
