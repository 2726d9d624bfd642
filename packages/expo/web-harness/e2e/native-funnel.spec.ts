import { createDecipheriv } from 'node:crypto';
import {
  CATALOGUES,
  CERTIFICATE_PROVIDERS,
  documentLabelKey,
  providerLabelKey,
  type Translate,
} from '@ferry/certificate-flow';
import { CERTIFICATE_DOCUMENTS, type CertificateDocument, type CertificateVendor } from '@ferry/contracts';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../../../../test/support/browser/accessibility.js';
import { expect, test } from '../../../../test/support/browser/certificate-fixtures.js';
import { openFunnel, recordAlerts, screenshot } from './support/harness.js';

const PERSON = { front: '900101', back: '1234567', sido: '서울특별시', sigg: '강남구', mother: '김영희' };

const decrypt = (payload: string, keyBase64: string): string => {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(keyBase64, 'base64'), bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
};

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

async function fillIntro(page: Page, t: Translate, document: CertificateDocument) {
  await page.getByRole('radio', { name: t(documentLabelKey(document)), exact: true }).click();
  await page.getByLabel(t('intro.front'), { exact: true }).fill(PERSON.front);
  await page.getByLabel(t('intro.back'), { exact: true }).fill(PERSON.back);
  if (document === 'family-relations') {
    await page.getByLabel(t('intro.family.mthrNm'), { exact: true }).fill(PERSON.mother);
    return;
  }
  for (const [picker, option] of [
    ['certificate-sido', PERSON.sido],
    ['certificate-sigg', PERSON.sigg],
  ] as const) {
    await page.getByTestId(picker).click();
    await page.getByRole('radio', { name: option, exact: true }).click();
    // The list closes (it slides away) and the field shows the choice.
    await expect(page.getByTestId(`${picker}-options`)).toBeHidden();
    await expect(page.getByTestId(picker)).toHaveText(option);
  }
}

const stepShown = (page: Page, step: string) => expect(page.getByTestId(`certificate-${step}`)).toBeVisible();

// Every document × vendor in Korean: VENDOR_A from the menu, VENDOR_B from an assignment deep link.
// English takes one representative path per vendor (the screens are the same, only words change).
const CASES = CERTIFICATE_DOCUMENTS.flatMap((document, index) =>
  (['VENDOR_A', 'VENDOR_B'] as const).map((vendor, v) => ({
    document,
    vendor,
    provider: CERTIFICATE_PROVIDERS[(index * 2 + v) % CERTIFICATE_PROVIDERS.length]!,
  })),
);
const ENGLISH_CASES = new Set(['resident-certificate VENDOR_A', 'family-relations VENDOR_B']);

// The native-en project runs only the tests tagged @english (playwright.config.ts).
const english = (inEnglish: boolean) => (inEnglish ? { tag: '@english' } : {});

for (const { document, vendor, provider } of CASES) {
  const inEnglish = ENGLISH_CASES.has(`${document} ${vendor}`);
  test(
    `native screens: ${document} with ${vendor} reach done and the PDF`,
    english(inEnglish),
    async ({ page, ferry, t, language, certificateRequests }) => {
      const alerts = recordAlerts(page);
      const assignmentId = vendor === 'VENDOR_B' ? await ferry.createAssignment(vendor as CertificateVendor) : null;
      await openFunnel(page, language, assignmentId);
      // Screenshot every step; axe once per document, step and language (the vendor changes no markup).
      const shot = async (step: string) => {
        await screenshot(page, `${language}-${document}-${vendor}-${step}`);
        if (vendor === 'VENDOR_A' || language === 'en') await expectAccessible(page);
      };

      await expect(page.getByRole('heading', { name: t('service.heading') })).toBeVisible();
      await fillIntro(page, t, document);
      await expect(page.getByLabel(t('intro.back'), { exact: true })).toHaveAttribute('type', 'password');
      await expect(page.getByRole('radio', { name: t(documentLabelKey(document)), exact: true })).toHaveAttribute(
        'aria-checked',
        'true',
      );
      await shot('1-intro');
      await page.getByRole('button', { name: t('intro.next'), exact: true }).click();

      await stepShown(page, 'simpleVerification');
      const chosen = t('chosenDocument', { document: t(documentLabelKey(document)) });
      await expect(page.getByText(chosen)).toBeVisible();
      const buttons = page.locator('[data-testid^="certificate-provider-"]');
      await expect(buttons).toHaveText(CERTIFICATE_PROVIDERS.map((p) => t(providerLabelKey(p.code))));
      for (const p of CERTIFICATE_PROVIDERS) {
        await expect(page.getByTestId(`certificate-provider-${p.code}`)).toHaveCSS('background-color', rgb(p.color));
      }
      await shot('2-simpleVerification');
      const providerLabel = t(providerLabelKey(provider.code));
      await page.getByRole('button', { name: providerLabel, exact: true }).click();

      await stepShown(page, 'confirm');
      await expect(
        page.getByRole('heading', { name: t('confirm.heading', { provider: providerLabel }) }),
      ).toBeVisible();
      await shot('3-confirm');
      await ferry.approveLatest(vendor);
      const issued = page.waitForResponse((r) => r.url().includes('/v2/user/certificate/') && r.status() === 200);
      await page.getByRole('button', { name: t('confirm.complete'), exact: true }).click();
      const body = (await (await issued).json()) as Record<string, { preSignedUrl: string | null }>;

      await stepShown(page, 'done');
      await expect(page.getByText(chosen)).toBeVisible();
      await shot('4-done');
      const url = Object.values(body)[0]?.preSignedUrl;
      expect(url).toBeTruthy();
      // "Open the PDF" hands the link to the system (here: a new browser page), as Linking.openURL does.
      const opened = page.context().waitForEvent('page');
      await page.getByRole('button', { name: t('done.open'), exact: true }).click();
      expect((await opened).url()).toBe(url);
      const pdf = await page.request.get(url!);
      expect(pdf.status()).toBe(200);
      expect((await pdf.body()).subarray(0, 4).toString('latin1')).toBe('%PDF');

      // On the wire: two calls to this document's endpoint, the entry's vendor, the 7 digits only encrypted.
      expect(certificateRequests.map((r) => new URL(r.url).pathname)).toEqual([
        `/v2/user/certificate/${document}`,
        `/v2/user/certificate/${document}`,
      ]);
      const key = await ferry.aesKey();
      for (const request of certificateRequests) {
        expect(request.body).not.toContain(PERSON.back);
        const sent = JSON.parse(request.body) as Record<string, unknown>;
        expect(sent).toMatchObject({ vendor, loginOrgCd: provider.code, assignmentId });
        expect(decrypt(String(sent.identityEnc ?? sent.rrn2Enc), key)).toBe(PERSON.back);
      }
      expect(alerts).toEqual([]);
    },
  );
}

test('native screens: "not approved yet" and "expired" are alerts, with no error step', async ({
  page,
  ferry,
  t,
  language,
}) => {
  const alerts = recordAlerts(page);
  await openFunnel(page, language, null);
  await fillIntro(page, t, 'resident-abstract');
  await page.getByRole('button', { name: t('intro.next'), exact: true }).click();
  await page.getByRole('button', { name: t('providers.provider_c'), exact: true }).click();
  await stepShown(page, 'confirm');

  await page.getByRole('button', { name: t('confirm.complete'), exact: true }).click();
  await expect.poll(() => alerts.length).toBe(1);
  expect(alerts[0]).toBe(`${t('alerts.notApprovedYet.title')}\n${t('alerts.notApprovedYet.message')}`);
  await stepShown(page, 'confirm');

  await ferry.approveLatest('VENDOR_A');
  await ferry.advanceClock('VENDOR_A', 301_000);
  await page.getByRole('button', { name: t('confirm.complete'), exact: true }).click();
  await expect.poll(() => alerts.length).toBe(2);
  // The server says VENDOR_A's window (300 s): the alert names it.
  expect(alerts[1]).toBe(
    `${t('alerts.authenticationExpired.title')}\n${t('alerts.authenticationExpired.message', { minutes: 5 })}`,
  );
  await stepShown(page, 'simpleVerification');
});

test('native screens: the person switches to English on the screen', async ({ page, language }) => {
  await openFunnel(page, language, null);
  await expect(page.getByRole('button', { name: CATALOGUES.ko.intro.next, exact: true })).toBeVisible();
  await page.getByRole('radio', { name: 'English', exact: true }).click();
  await expect(page.getByRole('button', { name: CATALOGUES.en.intro.next, exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Family relations certificate', exact: true })).toBeVisible();
});
