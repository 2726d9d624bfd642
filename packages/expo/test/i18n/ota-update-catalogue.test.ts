import { LANGUAGES } from '@ferry/contracts/languages';
import { describe, expect, it } from 'vitest';
import { OTA_UPDATE_CATALOGUES, OTA_UPDATE_KO } from '../../src/i18n/ota-update-catalogue.js';

/** Every leaf of a catalogue as [dotted key, text]. */
const leaves = (node: object, prefix = ''): Array<[string, unknown]> =>
  Object.entries(node).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );

describe('the OTA update catalogue', () => {
  it('has the languages of @ferry/contracts, Korean first', () => {
    expect(Object.keys(OTA_UPDATE_CATALOGUES)).toEqual([...LANGUAGES]);
    expect(OTA_UPDATE_CATALOGUES.ko).toBe(OTA_UPDATE_KO);
  });

  it.each(LANGUAGES)('%s has every Korean key, each a non-empty string', (language) => {
    const entries = leaves(OTA_UPDATE_CATALOGUES[language]);
    expect(entries.map(([key]) => key).sort()).toEqual(
      leaves(OTA_UPDATE_KO)
        .map(([key]) => key)
        .sort(),
    );
    for (const [key, text] of entries) {
      expect(typeof text, key).toBe('string');
      expect((text as string).trim(), key).not.toBe('');
    }
  });

  it.each([
    ['banner.message', '새 버전이 준비되었어요.', 'A new version is ready.'],
    ['banner.action', '지금 업데이트', 'Update now'],
    ['banner.dismiss', '닫기', 'Dismiss'],
    ['overlay.updating', '업데이트하고 있어요…', 'Updating…'],
  ])('%s is "%s" in Korean and "%s" in English', (key, ko, en) => {
    expect(new Map(leaves(OTA_UPDATE_CATALOGUES.ko)).get(key)).toBe(ko);
    expect(new Map(leaves(OTA_UPDATE_CATALOGUES.en)).get(key)).toBe(en);
  });
});
