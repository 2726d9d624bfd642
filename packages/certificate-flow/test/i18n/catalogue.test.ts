import { CERTIFICATE_DOCUMENTS, PROVIDERS } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertOf } from '../../src/funnel/alerts.js';
import { documentLabelKey } from '../../src/funnel/document-labels.js';
import { CERTIFICATE_PROVIDERS, providerKindKey, providerLabelKey } from '../../src/funnel/providers.js';
import {
  CATALOGUES,
  type CatalogueKey,
  DEFAULT_LANGUAGE,
  languageOr,
  SUPPORTED_LANGUAGES,
} from '../../src/i18n/catalogue.js';
import { createCertificateI18n, translatorOf } from '../../src/i18n/certificate-i18n.js';

/** Every leaf of a catalogue as [dotted key, text]. */
const leaves = (node: object, prefix = ''): Array<[string, unknown]> =>
  Object.entries(node).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();

const koreanKeys = leaves(CATALOGUES.ko).map(([key]) => key);
const translators = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [language, translatorOf(createCertificateI18n(language))]),
);

describe('the certificate catalogue', () => {
  it('is Korean first, English second', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['ko', 'en']);
    expect(DEFAULT_LANGUAGE).toBe('ko');
    expect(createCertificateI18n().language).toBe('ko');
    expect(languageOr('fr')).toBe('ko');
    expect(languageOr('en')).toBe('en');
  });

  it.each(SUPPORTED_LANGUAGES)(
    '%s has every key, each a non-empty string with the same placeholders as Korean',
    (language) => {
      const entries = leaves(CATALOGUES[language]);
      expect(entries.map(([key]) => key).sort()).toEqual([...koreanKeys].sort());
      const korean = new Map(leaves(CATALOGUES.ko));
      for (const [key, text] of entries) {
        expect(typeof text, key).toBe('string');
        expect((text as string).trim(), key).not.toBe('');
        expect(placeholders(text as string), key).toEqual(placeholders(korean.get(key) as string));
      }
    },
  );

  it.each<[CatalogueKey, string, string]>([
    ['documents.resident-certificate', '주민등록표 등본', 'Resident registration copy'],
    ['documents.resident-abstract', '주민등록표 초본', 'Resident registration abstract'],
    ['documents.family-relations', '가족관계증명서', 'Family relations certificate'],
    ['steps.simpleVerification', '간편인증', 'Verification'],
    ['providers.provider_a', '메신저 앱', 'Messenger app'],
    ['providers.provider_b', '포털 앱', 'Web portal'],
    ['providers.provider_c', '결제 앱', 'Payments app'],
    ['providers.provider_d', '은행 인증서 D', 'Bank certificate D'],
    ['providers.provider_e', '은행 인증서 E', 'Bank certificate E'],
    ['providerKinds.bank-certificate', '은행 인증서', 'Bank certificate'],
    ['dialog.close', '닫기', 'Close'],
  ])('%s is "%s" in Korean and "%s" in English', (key, ko, en) => {
    expect(translators.ko?.(key)).toBe(ko);
    expect(translators.en?.(key)).toBe(en);
  });

  it('interpolates parameters', () => {
    expect(translators.ko?.('validation.nameTooLong', { max: 64 })).toBe('성명은 64자까지 입력할 수 있어요.');
    expect(translators.en?.('validation.nameTooLong', { max: 64 })).toBe('A name can have at most 64 characters.');
    expect(translators.ko?.('confirm.heading', { provider: '포털' })).toBe('포털에서 인증을 승인해 주세요');
    expect(translators.ko?.('progress.position', { current: 2, total: 4 })).toBe('4단계 중 2단계: ');
    expect(translators.en?.('chosenDocument', { document: 'A & B' })).toBe('Requested certificate: A & B');
    expect(translators.ko?.('validation.back', { count: 5 })).toBe('뒤 7자리를 모두 입력해 주세요. (지금 5자리)');
    expect(translators.ko?.('done.issued', { minutes: 10 })).toBe(
      '파일은 10분 동안만 열 수 있어요. 지금 내려받아 저장해 주세요.',
    );
    expect(translators.ko?.('alerts.authenticationExpired.message', { minutes: 4 })).toBe(
      '인증 요청은 4분 안에 승인해야 해요. 인증 수단을 다시 선택해 새 요청을 보내 주세요.',
    );
    expect(translators.ko?.('alerts.notCertified.messageWithMenu', { menu: '내 정보 > 본인인증' })).toBe(
      '본인인증을 마친 회원만 신청할 수 있어요. 내 정보 > 본인인증에서 본인인증을 마친 뒤 다시 신청해 주세요.',
    );
  });

  it('speaks to residents, never in back-office words (배정된 건, 요청 건, 해당 건)', () => {
    for (const [key, text] of leaves(CATALOGUES.ko)) {
      expect(text, key).not.toMatch(/배정|해당 건|요청 건|\S+ 건(?=[을이과은의에]|\b)/);
    }
  });

  it('names every action button the same way (…하기, …기)', () => {
    const buttons: CatalogueKey[] = [
      'intro.next',
      'verification.back',
      'confirm.complete',
      'confirm.chooseAnother',
      'done.open',
      'done.share',
      'done.download',
      'done.restart',
      'entry.backToList',
      'entry.back',
      'entry.retry',
    ];
    for (const key of buttons) expect(translators.ko?.(key), key).toMatch(/기$/);
  });

  it('names every document, provider, provider kind and alert the funnel can show', () => {
    const known = new Set(koreanKeys);
    const keys: string[] = [
      ...CERTIFICATE_DOCUMENTS.map(documentLabelKey),
      ...PROVIDERS.flatMap((p) => [providerLabelKey(p.code), providerKindKey(p.kind)]),
      ...ALERT_KINDS.flatMap((kind) => [alertOf(kind).title, alertOf(kind).message]),
    ];
    for (const key of keys) expect(known, key).toContain(key);
  });

  it('keeps the alerts in one polite register (해요체 or 합니다체 endings), each ending on what to do next', () => {
    const alertMessages = leaves(CATALOGUES.ko).filter(([key]) => /^alerts\.\w+\.message/.test(key));
    expect(alertMessages.length).toBeGreaterThanOrEqual(ALERT_KINDS.length + 2);
    for (const [key, text] of alertMessages) {
      const sentences = (text as string).split(/(?<=\.)\s+/);
      for (const sentence of sentences) expect(sentence, key).toMatch(/(요|니다)\.$/);
      // The last sentence asks the person to do something: 해 주세요, 눌러 주세요, 열어 주세요…
      expect(sentences.at(-1), key).toMatch(/주세요\.$/);
    }
  });

  it('lists the providers once, in the seed order, for both clients', () => {
    expect(CERTIFICATE_PROVIDERS.map((p) => p.code)).toEqual([
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
    ]);
  });
});
