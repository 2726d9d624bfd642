import { defineConfig } from '@playwright/test';
import { DEBIAN_CHROMIUM } from '../../test/support/debian-chromium.js';
import { HANG_GUARD_MS } from '../../test/support/hang-guard.cjs';

/**
 * Browser tests of the release console: Debian's Chromium (never a downloaded browser) against two
 * real server instances on one PostgreSQL database, started by each spec file (e2e/support/stack.ts).
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI === 'true',
  retries: 0,
  // A hang guard, not a speed requirement: every step waits on the page (web-first assertions retry).
  timeout: HANG_GUARD_MS,
  expect: { timeout: HANG_GUARD_MS },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: DEBIAN_CHROMIUM,
    viewport: { width: 1280, height: 900 },
    actionTimeout: 0,
    navigationTimeout: 0,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
