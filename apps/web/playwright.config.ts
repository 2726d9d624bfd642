import { defineConfig } from '@playwright/test';
import type { LanguageOptions } from '../../test/support/browser/certificate-fixtures.js';
import { BROWSER_SUITE } from '../../test/support/browser/suite-config.js';

/**
 * Browser tests of the certificate funnel (test/support/browser/suite-config.ts): against a real
 * Ferry server with the vendor simulators, started by e2e/support/global-setup.ts.
 */
export default defineConfig<LanguageOptions>(BROWSER_SUITE, {
  // A phone: the page is laid out for 390 px first.
  use: { viewport: { width: 390, height: 844 } },
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
        'back-and-reload.spec.ts',
        'network.spec.ts',
        'dead-ends.spec.ts',
        'docs-screenshots.spec.ts',
      ],
    },
  ],
});
