import { fileURLToPath } from 'node:url';
import { documentLabelKey, type IntroField, type Translate } from '@ferry/certificate-flow';
import type { CertificateDocument } from '@ferry/contracts';
import { expect, type Page } from '@playwright/test';
import { screenshotsIn } from '../../../../test/support/browser/screenshots.js';

/** Screenshots of every step, kept as test artifacts (gitignored). */
export const screenshot = screenshotsIn(fileURLToPath(new URL('../../test-results/screenshots', import.meta.url)));

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type Step = 'intro' | 'simpleVerification' | 'confirm' | 'done';

/** Each step's heading in the test's language (confirm names the provider, any provider). */
export const stepHeading = (t: Translate, step: Step): string | RegExp => {
  if (step === 'intro') return t('intro.heading');
  if (step === 'simpleVerification') return t('verification.heading');
  if (step === 'done') return t('done.heading');
  const [before = '', after = ''] = t('confirm.heading', { provider: '\u0000' }).split('\u0000');
  return new RegExp(`^${escapeRegExp(before)}.+${escapeRegExp(after)}$`);
};

type FamilyField = Extract<IntroField, 'fthrNm' | 'mthrNm' | 'sposNm' | 'childNm'>;

export interface Identity {
  front: string;
  back: string;
  sido?: string;
  sigg?: string;
  names?: Partial<Record<FamilyField, string>>;
}

export const PERSON: Required<Identity> = {
  front: '900101',
  back: '1234567',
  sido: '서울특별시',
  sigg: '강남구',
  names: { mthrNm: '김영희' },
};

/** The step is shown and, as promised to keyboard and screen-reader users, its heading has focus. */
export async function expectStep(page: Page, t: Translate, step: Step): Promise<void> {
  const heading = page.getByRole('heading', { level: 2, name: stepHeading(t, step) });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
}

/** The intro's controls, found by the words a person reads in the test's language. */
export const introFields = (page: Page, t: Translate) => ({
  front: page.getByLabel(t('intro.front'), { exact: true }),
  back: page.getByLabel(t('intro.back'), { exact: true }),
  sido: page.getByLabel(t('intro.sido'), { exact: true }),
  sigg: page.getByLabel(t('intro.sigg'), { exact: true }),
  family: (field: FamilyField) => page.getByLabel(t(`intro.family.${field}`), { exact: true }),
  next: page.getByRole('button', { name: t('intro.next'), exact: true }),
});

export async function fillIntro(page: Page, t: Translate, document: CertificateDocument, identity: Identity) {
  const fields = introFields(page, t);
  await page.getByRole('radio', { name: t(documentLabelKey(document)) }).check();
  await fields.front.fill(identity.front);
  await fields.back.fill(identity.back);
  if (identity.sido !== undefined) await fields.sido.selectOption(identity.sido);
  if (identity.sigg !== undefined) await fields.sigg.selectOption(identity.sigg);
  for (const [field, value] of Object.entries(identity.names ?? {})) {
    await fields.family(field as FamilyField).fill(value ?? '');
  }
}

/** The open alert dialog, with this title. */
export async function expectAlert(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText(title);
}

export async function dismissAlert(page: Page, t: Translate): Promise<void> {
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: t('dialog.ok') })
    .click();
  await expect(page.getByRole('alertdialog')).toBeHidden();
}

/** No sideways scrolling: the page fits its width (390 px in this suite). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Everything this page keeps in the browser: both storages, whole, and its address. */
export async function keptInBrowser(page: Page): Promise<string> {
  const storages = await page.evaluate(() => {
    const all = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => {
        const key = storage.key(i) ?? '';
        return `${key}=${storage.getItem(key)}`;
      });
    return [...all(window.sessionStorage), ...all(window.localStorage)].join('\n');
  });
  return `${page.url()}\n${storages}`;
}

/** A sentence of the catalogue with its `{{placeholders}}` matching anything: for texts with a time or a count. */
export const sentencePattern = (text: string): RegExp =>
  new RegExp(
    text
      .split(/\{\{\w+\}\}/)
      .map(escapeRegExp)
      .join('.+'),
  );
