import { createCipheriv, randomBytes } from 'node:crypto';
import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectAccessible,
  expectAlert,
  expectStep,
  fillIntro,
  PERSON,
  screenshot,
} from './support/funnel-page.js';

test.describe('invalid input is blocked in the page', () => {
  test('empty and malformed details stay on intro with labelled errors and send nothing', async ({
    page,
    certificateRequests,
  }) => {
    await page.goto('/');
    await expectStep(page, 'intro');
    await page.getByRole('button', { name: 'Next' }).click();
    await expectAlert(page, 'Please check your details');
    await expectAccessible(page);
    await dismissAlert(page);

    const front = page.getByLabel('First 6 digits');
    await expect(front).toHaveAttribute('aria-invalid', 'true');
    await expect(front).toHaveAccessibleDescription(/first 6 digits of your resident registration number/);
    await expect(page.getByLabel('Province or city')).toHaveAccessibleDescription(/province or city/);
    await screenshot(page, 'intro-invalid');

    // Letters never enter the numeric fields; an impossible date and a short back part are refused.
    await front.fill('9a0b1301');
    await expect(front).toHaveValue('901301');
    await front.fill('900101-1234567');
    await expect(front).toHaveValue('900101');
    await front.fill('901301');
    await page.getByLabel('Last 7 digits').fill('12345');
    await page.getByLabel('Province or city').selectOption('부산광역시');
    await page.getByLabel('District').selectOption('해운대구');
    await page.getByRole('button', { name: 'Next' }).click();
    await dismissAlert(page);
    await expect(front).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Last 7 digits')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('District')).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request a certificate');

    // Family relations needs at least one name.
    await fillIntro(page, 'family-relations', { front: PERSON.front, back: PERSON.back });
    await page.getByRole('button', { name: 'Next' }).click();
    await dismissAlert(page);
    await expect(page.getByLabel("Father's name")).toHaveAccessibleDescription(/at least one family member/);

    expect(certificateRequests).toEqual([]);
  });
});

test.describe('invalid input is refused by the server when sent directly', () => {
  const encrypt = (digits: string, keyBase64: string): string => {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(keyBase64, 'base64'), iv);
    return Buffer.concat([iv, cipher.update(digits, 'utf8'), cipher.final()]).toString('base64');
  };

  test('plain, wrongly keyed or incomplete bodies get 400 with a field list and no echo', async ({
    ferry,
    request,
  }) => {
    const token = await ferry.userToken();
    const key = await ferry.aesKey();
    const resident = {
      vendor: 'VENDOR_A',
      loginOrgCd: 'provider_a',
      birthDate: PERSON.front,
      identityEnc: encrypt(PERSON.back, key),
      sido: PERSON.sido,
      sigg: PERSON.sigg,
    };
    const family = {
      vendor: 'VENDOR_B',
      loginOrgCd: 'provider_a',
      rrn1: PERSON.front,
      rrn2Enc: encrypt(PERSON.back, key),
      fthrNm: '홍길동',
    };
    const wrongKey = randomBytes(32).toString('base64');
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['the back part in plain', 'resident-certificate', { ...resident, identityEnc: PERSON.back }],
      [
        'the back part under another key',
        'resident-abstract',
        { ...resident, identityEnc: encrypt(PERSON.back, wrongKey) },
      ],
      [
        'an encrypted value that is not 7 digits',
        'resident-certificate',
        { ...resident, identityEnc: encrypt('12345', key) },
      ],
      ['a birth part of 5 digits', 'resident-certificate', { ...resident, birthDate: '90010' }],
      ['no district', 'resident-abstract', { ...resident, sigg: undefined }],
      ['an unknown provider', 'resident-certificate', { ...resident, loginOrgCd: 'provider_z' }],
      ['no family name at all', 'family-relations', { ...family, fthrNm: null }],
      ['the plain back part in family relations', 'family-relations', { ...family, rrn2Enc: PERSON.back }],
    ];
    for (const [name, document, body] of cases) {
      const response = await request.post(`/v2/user/certificate/${document}`, {
        headers: { authorization: `Bearer ${token}` },
        data: body,
      });
      expect(response.status(), name).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text).error.code, name).toMatch(/^[A-Z_]+$/);
      expect(text, name).not.toContain(PERSON.back);
    }
  });
});
