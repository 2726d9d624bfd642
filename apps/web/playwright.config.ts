import { defineConfig } from '@playwright/test';
import { HANG_GUARD_MS } from '../../test/support/hang-guard.cjs';

/**
 * Browser tests of the certificate funnel: Debian's Chromium (never a downloaded browser) against
 * a real Ferry server with the vendor simulators, started by e2e/support/global-setup.ts.
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
  // One worker: the tests drive the simulators' shared "latest pending session" control.
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI === 'true',
  retries: 0,
  // A hang guard, not a speed requirement (test/support/hang-guard.cjs): every step waits on the page
  // (web-first assertions retry until they hold), so a loaded machine makes a test slower, never failing.
  timeout: HANG_GUARD_MS,
  expect: { timeout: HANG_GUARD_MS },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // Playwright's own default is 3 minutes.
      timeout: HANG_GUARD_MS,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    viewport: { width: 480, height: 900 },
    // No limits of their own (0): actions, navigations and API requests wait as long as the test may.
    actionTimeout: 0,
    navigationTimeout: 0,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
