import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { DOCUMENT_LABELS } from '@ferry/certificate-flow';
import type { CertificateDocument } from '@ferry/contracts';
import { expect, type Page } from '@playwright/test';

/** Screenshots of every step, kept as test artifacts (gitignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url));

export const HEADINGS = {
  intro: 'Request a certificate',
  simpleVerification: 'Choose how to verify your identity',
  confirm: /^Approve the request in /,
  done: 'Your certificate is ready',
} as const;

export interface Identity {
  front: string;
  back: string;
  sido?: string;
  sigg?: string;
  names?: Partial<Record<"Father's name" | "Mother's name" | "Spouse's name" | "Child's name", string>>;
}

export const PERSON: Required<Identity> = {
  front: '900101',
  back: '1234567',
  sido: '서울특별시',
  sigg: '강남구',
  names: { "Mother's name": '김영희' },
};

/** The step is shown and, as promised to keyboard and screen-reader users, its heading has focus. */
export async function expectStep(page: Page, step: keyof typeof HEADINGS): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, name: HEADINGS[step] });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
}

/** axe-core: nothing serious or critical, on whatever is on screen now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(severe.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

export async function fillIntro(page: Page, document: CertificateDocument, identity: Identity): Promise<void> {
  await page.getByRole('radio', { name: DOCUMENT_LABELS[document] }).check();
  await page.getByLabel('First 6 digits').fill(identity.front);
  await page.getByLabel('Last 7 digits').fill(identity.back);
  if (identity.sido !== undefined) await page.getByLabel('Province or city').selectOption(identity.sido);
  if (identity.sigg !== undefined) await page.getByLabel('District').selectOption(identity.sigg);
  for (const [label, value] of Object.entries(identity.names ?? {})) await page.getByLabel(label).fill(value ?? '');
}

/** The open alert dialog, checked to say something; returns its text for the caller's assertions. */
export async function expectAlert(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText(title);
}

export async function dismissAlert(page: Page): Promise<void> {
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('alertdialog')).toBeHidden();
}
