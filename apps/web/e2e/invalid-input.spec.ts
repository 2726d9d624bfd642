import { createCipheriv, randomBytes } from 'node:crypto';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { expect, test } from './support/fixtures.js';
import {
  escapeRegExp,
  expectNoSidewaysScroll,
  expectStep,
  fillIntro,
  introFields,
  PERSON,
  screenshot,
} from './support/funnel-page.js';

test.describe('invalid input is blocked in the page', () => {
  test('empty and malformed details stay on intro with inline errors (no dialog) and send nothing', async ({
    page,
    certificateRequests,
    language,
    t,
  }) => {
    const fields = introFields(page, t);
    await page.goto('/');
    await expectStep(page, t, 'intro');
    await fields.next.click();

    // Shown once: next to the fields, never also as a dialog; focus goes to the first field to fix.
    await expect(fields.front).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alertdialog')).toBeHidden();
    await expect(fields.front).toBeFocused();
    await expect(fields.front).toHaveAccessibleDescription(new RegExp(escapeRegExp(t('validation.front.missing'))));
    await expect(fields.back).toHaveAccessibleDescription(new RegExp(escapeRegExp(t('validation.back', { count: 0 }))));
    await expect(fields.sido).toHaveAccessibleDescription(t('validation.sido'));
    await expect(page.getByText(t('validation.front.missing'))).toHaveCount(1);
    await expectAccessible(page);
    await screenshot(page, `${language}-intro-invalid`);

    // Letters never enter the numeric fields, and the field says why instead of dropping them silently.
    const digitsOnly = new RegExp(escapeRegExp(t('validation.digitsOnly')));
    await fields.front.fill('9a0b1301');
    await expect(fields.front).toHaveValue('901301');
    await expect(fields.front).toHaveAccessibleDescription(digitsOnly);
    await expect(page.getByRole('status').filter({ hasText: t('validation.digitsOnly') })).toBeVisible();
    await fields.front.fill('900101-1234567');
    await expect(fields.front).toHaveValue('900101');
    await fields.front.fill('901301');
    await expect(fields.front).not.toHaveAccessibleDescription(digitsOnly);
    await fields.back.pressSequentially('12a');
    await expect(fields.back).toHaveValue('12');
    await expect(fields.back).toHaveAccessibleDescription(digitsOnly);
    await fields.back.fill('12345');

    // An impossible date says it is not a date, with an example; a short back part says how many are there.
    await fields.sido.selectOption('부산광역시');
    await fields.sigg.selectOption('해운대구');
    await fields.next.click();
    await expect(fields.front).toHaveAttribute('aria-invalid', 'true');
    await expect(fields.front).toHaveAccessibleDescription(new RegExp(escapeRegExp(t('validation.front.notADate'))));
    await expect(fields.back).toHaveAttribute('aria-invalid', 'true');
    await expect(fields.back).toHaveAccessibleDescription(new RegExp(escapeRegExp(t('validation.back', { count: 5 }))));
    await expect(fields.sigg).toHaveAttribute('aria-invalid', 'false');
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await screenshot(page, `${language}-intro-impossible-date`);
    await fields.front.fill('010229');
    await fields.next.click();
    await expect(fields.front).toHaveAccessibleDescription(new RegExp(escapeRegExp(t('validation.front.notADate'))));
    await expect(page.getByRole('alertdialog')).toBeHidden();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('intro.heading'));

    // Family relations needs at least one name.
    await fillIntro(page, t, 'family-relations', { front: PERSON.front, back: PERSON.back });
    await fields.next.click();
    await expect(fields.family('fthrNm')).toHaveAccessibleDescription(t('validation.familyRequired'));
    await expect(fields.family('fthrNm')).toBeFocused();
    await expect(page.getByRole('alertdialog')).toBeHidden();

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
    language,
  }) => {
    test.skip(language === 'en', 'no page involved: the Korean run covers it');
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
