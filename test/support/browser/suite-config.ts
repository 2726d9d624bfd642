import type { PlaywrightTestConfig } from '@playwright/test';
import { HANG_GUARD_MS } from '../hang-guard.cjs';
import { DEBIAN_CHROMIUM } from './debian-chromium.js';

// In the test workers (forked with this environment) workspace packages resolve to their TypeScript
// sources, as the pages and the e2e servers do, never to a dist/ that may be older than the sources:
// a test expects the words of the catalogue its page is built from.
if (!process.env.NODE_OPTIONS?.includes('--conditions=@ferry/source')) {
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--conditions=@ferry/source'].filter(Boolean).join(' ');
}

/**
 * The Playwright configuration every browser suite shares (the web funnel, the release console, the
 * native screens through react-native-web), for a playwright.config.ts beside an `e2e/` folder that
 * passes it to defineConfig with what it sets itself (its page size, its projects): specs in e2e/,
 * e2e/support/global-setup.ts run first, artifacts in test-results/. Debian's Chromium
 * (debian-chromium.ts), never a downloaded browser; one worker, since the certificate suites drive
 * the simulators' shared "latest pending session" control and each console spec file starts two
 * servers; the hang guard as the only time limit.
 */
export const BROWSER_SUITE: PlaywrightTestConfig = {
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
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
    // No limits of their own (0): actions, navigations and API requests wait as long as the test may.
    actionTimeout: 0,
    navigationTimeout: 0,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
};
