import { defineConfig } from '@playwright/test';
import { BROWSER_SUITE } from '../../test/support/browser/suite-config.js';

/**
 * Browser tests of the release console (test/support/browser/suite-config.ts): against two real
 * server instances on one PostgreSQL database, started by each spec file (e2e/support/stack.ts).
 */
export default defineConfig(BROWSER_SUITE, { use: { viewport: { width: 1440, height: 900 } } });
