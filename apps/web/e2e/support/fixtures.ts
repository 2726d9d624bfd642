import { DEFAULT_LANGUAGE } from '@ferry/certificate-flow';
import { test as certificateTest } from '../../../../test/support/browser/certificate-fixtures.js';
import { LANGUAGE_STORAGE_KEY } from '../../src/i18n/web-i18n.js';

export { expect } from '../../../../test/support/browser/certificate-fixtures.js';

/** The certificate suites' fixtures, and the web page's remembered language. */
export const test = certificateTest.extend({
  // A person who chose another language before: the page finds it remembered. Korean needs nothing
  // (it is what a first visit shows). Only a missing choice is filled, so a switch in the test sticks.
  page: async ({ page, language }, use) => {
    if (language !== DEFAULT_LANGUAGE) {
      await page.addInitScript(
        ([key, value]) => {
          if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
        },
        [LANGUAGE_STORAGE_KEY, language] as const,
      );
    }
    await use(page);
  },
});
