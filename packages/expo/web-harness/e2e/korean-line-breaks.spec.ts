import { expect, test } from '../../../../test/support/browser/certificate-fixtures.js';
import { openFunnel, screenshot } from './support/harness.js';
import { breaksInsideKoreanWords, type LaidOutText, textsOnScreen } from './support/text-lines.js';

const HANGUL = /[\uAC00-\uD7A3]/;

/** Every text on screen has word-break: keep-all, and no line ends inside a Korean word. */
function expectKoreanWordsKept(texts: LaidOutText[]) {
  expect(texts.length).toBeGreaterThan(5);
  expect(texts.filter((text) => text.wordBreak !== 'keep-all').map((text) => text.text)).toEqual([]);
  expect(texts.flatMap(breaksInsideKoreanWords)).toEqual([]);
}

// Korean only (untagged, so the native-en project leaves them out): English never breaks inside a word.
test('Korean line breaks: at 390 px every text of the funnel wraps between words (word-break: keep-all)', async ({
  page,
  t,
  language,
}) => {
  await openFunnel(page, language, null);
  // Next without any details: every field shows its (long) sentence.
  await page.getByRole('button', { name: t('intro.next'), exact: true }).click();
  await expect(page.getByText(t('validation.sido'), { exact: true })).toBeVisible();

  const texts = await textsOnScreen(page);
  expectKoreanWordsKept(texts);
  // The heading and the field errors are long enough to wrap at this width, and they do, between words.
  const heading = texts.find((text) => text.text === t('intro.heading'));
  expect(heading?.lines.length).toBeGreaterThan(1);
  for (const line of heading?.lines.slice(0, -1) ?? []) expect(line).toMatch(/ $/);
  const wrapped = texts.filter((text) => text.lines.length > 1 && HANGUL.test(text.text));
  expect(wrapped.length).toBeGreaterThanOrEqual(3);
  await screenshot(page, 'ko-keep-all-intro-errors');

  // The family names' sentence, the longest of the intro.
  await page.getByRole('radio', { name: t('documents.family-relations'), exact: true }).click();
  await page.getByRole('button', { name: t('intro.next'), exact: true }).click();
  await expect(page.getByText(t('validation.familyRequired'), { exact: true })).toBeVisible();
  const family = await textsOnScreen(page);
  expectKoreanWordsKept(family);
  expect(family.find((text) => text.text === t('validation.familyRequired'))?.lines.length).toBeGreaterThan(1);
});

test('Korean line breaks: without keep-all the same heading would break inside a word (the check can fail)', async ({
  page,
  t,
  language,
}) => {
  await openFunnel(page, language, null);
  const heading = page.getByRole('heading', { name: t('intro.heading') });
  // Chromium breaks Korean between any two syllables by default (CSS word-break: normal).
  await heading.evaluate((element) => {
    (element as HTMLElement).style.wordBreak = 'normal';
  });
  const texts = await textsOnScreen(page);
  const normal = texts.find((text) => text.text === t('intro.heading'));
  expect(normal?.wordBreak).toBe('normal');
  expect(breaksInsideKoreanWords(normal!)).not.toEqual([]);
});
