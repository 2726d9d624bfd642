import { defineConfig } from '@playwright/test';
import { DEBIAN_CHROMIUM } from '../../test/support/debian-chromium.js';
import { HANG_GUARD_MS } from '../../test/support/hang-guard.cjs';
import type { LanguageOptions } from './e2e/support/fixtures.js';

// The tests expect the words of the catalogue the page is built from: in the test workers (forked
// with this environment) workspace packages resolve to their TypeScript sources, as the page and the
// e2e server do, never to a dist/ that may be older than the sources.
if (!process.env.NODE_OPTIONS?.includes('--conditions=@ferry/source')) {
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--conditions=@ferry/source'].filter(Boolean).join(' ');
}

/**
 * Browser tests of the certificate funnel: Debian's Chromium (never a downloaded browser) against
 * a real Ferry server with the vendor simulators, started by e2e/support/global-setup.ts.
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
  // A hang guard, not a speed requirement (test/support/hang-guard.cjs): every step waits on the page
  // (web-first assertions retry until they hold), so a loaded machine makes a test slower, never failing.
  timeout: HANG_GUARD_MS,
  expect: { timeout: HANG_GUARD_MS },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: DEBIAN_CHROMIUM,
    // A phone: the page is laid out for 390 px first.
    viewport: { width: 390, height: 844 },
    // No limits of their own (0): actions, navigations and API requests wait as long as the test may.
    actionTimeout: 0,
    navigationTimeout: 0,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  // Korean first: every spec in Korean (the default); English runs the specs that show words,
  // each taking a representative path (documents-and-vendors skips most of its matrix in English).
  projects: [
    { name: 'ko', use: { language: 'ko' } },
    {
      name: 'en',
      use: { language: 'en' },
      testMatch: [
        'documents-and-vendors.spec.ts',
        'invalid-input.spec.ts',
        'confirm-and-expiry.spec.ts',
        'language.spec.ts',
        'docs-screenshots.spec.ts',
      ],
    },
  ],
});
