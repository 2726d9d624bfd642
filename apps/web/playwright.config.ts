import { defineConfig } from '@playwright/test';

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
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
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
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
