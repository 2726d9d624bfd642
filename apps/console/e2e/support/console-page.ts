import { fileURLToPath } from 'node:url';
import { type BrowserContext, expect, type Page, type TestInfo } from '@playwright/test';
import { expectAccessible } from '../../../../test/support/browser/accessibility.js';
import { screenshotsIn } from '../../../../test/support/browser/screenshots.js';
import type { ConsoleLanguage } from '../../src/i18n/catalogue.js';
import { LANGUAGE_STORAGE_KEY } from '../../src/i18n/language-storage.js';

/** Screenshots of every page at both sizes, kept as test artifacts (and attached to the report). */
const screenshot = screenshotsIn(fileURLToPath(new URL('../../test-results/screenshots', import.meta.url)));

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** At desktop and phone width: no serious axe violation, no sideways scrolling, a full-page PNG each. */
export async function capture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page);
    // A phone-sized screen shows the whole page without scrolling sideways.
    expect(await sticksOut(page, viewport.width)).toEqual([]);
    const file = await screenshot(page, `${name}-${size}`);
    await testInfo.attach(`${name}-${size}`, { path: file, contentType: 'image/png' });
  }
  await page.setViewportSize(DESKTOP);
}

/**
 * What makes the page wider than `width` (empty when it is not): elements, and text runs too, since
 * a long word can stick out of a box that itself fits. Naming them makes a failure say where.
 */
export async function sticksOut(page: Page, width: number): Promise<string[]> {
  return page.evaluate((limit) => {
    if (document.documentElement.scrollWidth <= limit) return [];
    const out = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      if (range.getBoundingClientRect().right > limit + 0.5) {
        out.push(`text in ${node.parentElement?.tagName.toLowerCase()}: ${node.textContent?.slice(0, 40)}`);
      }
    }
    return [`scrollWidth ${document.documentElement.scrollWidth}`, ...out.slice(-5)];
  }, width);
}

/**
 * The tests' words are the English catalogue's: every page of the context opens in English unless a
 * test chose a language itself (chooseLanguage). Korean, the default, has tests of its own.
 */
export async function inEnglish(context: BrowserContext): Promise<void> {
  await context.addInitScript((key) => {
    try {
      if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, 'en');
    } catch {
      // about:blank has no storage
    }
  }, LANGUAGE_STORAGE_KEY);
}

/** Shows the console in `language` from now on (as the switch would remember it), and reloads. */
export async function chooseLanguage(page: Page, language: ConsoleLanguage): Promise<void> {
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), {
    key: LANGUAGE_STORAGE_KEY,
    value: language,
  });
  await page.reload();
}

export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tracks' })).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Operator token')).toBeVisible();
}
