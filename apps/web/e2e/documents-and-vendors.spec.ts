import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import { CERTIFICATE_PROVIDERS, documentLabelKey, providerLabelKey } from '@ferry/certificate-flow';
import { CERTIFICATE_DOCUMENTS, type CertificateVendor } from '@ferry/contracts';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { CERTIFICATE_ENV } from '../../../test/support/browser/certificate-setup.js';
import { expect, test } from './support/fixtures.js';
import { expectStep, fillIntro, introFields, PERSON, screenshot } from './support/funnel-page.js';

const decrypt = (payload: string, keyBase64: string): string => {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(keyBase64, 'base64'), bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
};

// VENDOR_A through the electronic-certificate menu (no assignment), VENDOR_B through an assignment.
const CASES = CERTIFICATE_DOCUMENTS.flatMap((document, index) =>
  (['VENDOR_A', 'VENDOR_B'] as const).map((vendor, v) => ({
    document,
    vendor,
    provider: CERTIFICATE_PROVIDERS[(index * 2 + v) % CERTIFICATE_PROVIDERS.length]!,
    // Korean runs the whole matrix; English one path per vendor and per entry point (the words
    // change, the flow does not), so the suite stays short.
    inEnglish: index * 2 + v === 0 || index * 2 + v === 5,
  })),
);

for (const { document, vendor, provider, inEnglish } of CASES) {
  test(`${document} with ${vendor} reaches done and the PDF`, async ({
    page,
    ferry,
    certificateRequests,
    language,
    t,
  }) => {
    test.skip(language === 'en' && !inEnglish, 'English runs a representative path; Korean the whole matrix');
    const providerLabel = t(providerLabelKey(provider.code));
    const fromAssignment = vendor === 'VENDOR_B';
    const assignmentId = fromAssignment ? await ferry.createAssignment(vendor as CertificateVendor) : null;
    await page.goto(assignmentId ? `/?assignmentId=${assignmentId}` : '/');
    const shot = (step: string) => screenshot(page, `${language}-${document}-${vendor}-${step}`);
    // axe once per document, step and language is enough: the vendor changes no markup.
    const checkAccessibility = () =>
      vendor === 'VENDOR_A' || language === 'en' ? expectAccessible(page) : Promise.resolve();

    await expectStep(page, t, 'intro');
    const isFamily = document === 'family-relations';
    await fillIntro(
      page,
      t,
      document,
      isFamily ? { ...PERSON, sido: undefined, sigg: undefined } : { ...PERSON, names: {} },
    );
    await expect(introFields(page, t).back).toHaveAttribute('type', 'password');
    await checkAccessibility();
    await shot('1-intro');
    await introFields(page, t).next.click();

    // Later steps repeat the chosen document.
    const chosen = t('chosenDocument', { document: t(documentLabelKey(document)) });
    await expectStep(page, t, 'simpleVerification');
    await expect(page.getByText(chosen)).toBeVisible();
    // The five providers, in the shared order, with the catalogue's labels and the shared colours.
    const buttons = page.locator('button[data-provider]');
    await expect(buttons).toHaveText(CERTIFICATE_PROVIDERS.map((p) => t(providerLabelKey(p.code))));
    await expect(page.getByRole('button', { name: providerLabel, exact: true })).toHaveCSS(
      'background-color',
      `rgb(${[1, 3, 5].map((i) => Number.parseInt(provider.color.slice(i, i + 2), 16)).join(', ')})`,
    );
    await checkAccessibility();
    await shot('2-simpleVerification');
    await page.getByRole('button', { name: providerLabel, exact: true }).click();

    await expectStep(page, t, 'confirm');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('confirm.heading', { provider: providerLabel }));
    await expect(page.getByText(chosen)).toBeVisible();
    await checkAccessibility();
    await shot('3-confirm');
    await ferry.approveLatest(vendor);
    await page.getByRole('button', { name: t('confirm.complete') }).click();

    await expectStep(page, t, 'done');
    await expect(page.getByText(chosen)).toBeVisible();
    await checkAccessibility();
    await shot('4-done');
    const href = await page.getByRole('link', { name: t('done.open') }).getAttribute('href');
    expect(href).toBeTruthy();
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 4).toString('latin1')).toBe('%PDF');
    await expect(page.getByRole('link', { name: t('done.download') })).toHaveAttribute('href', href!);

    // On the wire: two calls to this document's endpoint, the vendor of the entry point, the
    // back part only as ciphertext (fresh IV per encryption, same ciphertext reused for both calls).
    expect(certificateRequests.map((r) => new URL(r.url).pathname)).toEqual([
      `/v2/user/certificate/${document}`,
      `/v2/user/certificate/${document}`,
    ]);
    const key = await ferry.aesKey();
    const [first, second] = certificateRequests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    for (const [body, call] of [
      [first!, 'first'],
      [second!, 'second'],
    ] as const) {
      const raw = JSON.stringify(body);
      expect(raw).not.toContain(PERSON.back);
      expect(body).toMatchObject({ vendor, loginOrgCd: provider.code, assignmentId });
      const encrypted = String(isFamily ? body.rrn2Enc : body.identityEnc);
      expect(encrypted).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(decrypt(encrypted, key)).toBe(PERSON.back);
      expect(isFamily ? body.rrn1 : body.birthDate).toBe(PERSON.front);
      const state = vendor === 'VENDOR_A' ? body.stepData : body.twoWayInfo;
      if (call === 'first') expect(state ?? null).toBeNull();
      else expect(state).toBeTruthy();
    }
  });
}

// Runs after the six issuances above (one worker, file order): what the server logged about them.
test('the server log never carries the identity numbers or the ciphertext', async () => {
  const log = fs.readFileSync(process.env[CERTIFICATE_ENV.serverLog] ?? '', 'utf8');
  expect(log.length).toBeGreaterThan(0);
  expect(log).not.toMatch(new RegExp(`(?<!\\d)(${PERSON.back}|${PERSON.front})(?!\\d)`));
  expect(log).not.toMatch(/identityEnc"\s*:\s*"[A-Za-z0-9+/]/);
  expect(log).not.toMatch(/rrn2Enc"\s*:\s*"[A-Za-z0-9+/]/);
});
