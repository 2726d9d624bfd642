import { type Track, UpdatePolicy, updatePolicyName } from '@ferry/contracts';
import type { Translate } from './i18n/catalogue.js';

export const trackLabel = (t: Track): string => `${t.channel} · ${t.platform} · ${t.runtimeVersion}`;
export const sameTrack = (a: Track, b: Track): boolean =>
  a.channel === b.channel && a.platform === b.platform && a.runtimeVersion === b.runtimeVersion;
export const shortId = (id: string): string => id.slice(0, 8);
export const shortFingerprint = (fingerprint: string): string =>
  fingerprint.length > 12 ? `${fingerprint.slice(0, 12)}…` : fingerprint;
export const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
/** A share as a whole-looking percentage: 0.5 → "50 %", 0.125 → "12.5 %". */
export const share = (ratio: number): string => `${Number((ratio * 100).toFixed(1))} %`;
/** A count in the language's grouping: 1240 → "1,240". */
export const count = (value: number, locale: string): string => new Intl.NumberFormat(locale).format(value);
/** "1 device", "1,240 devices" (Korean has one form). */
export const devices = (t: Translate, value: number, locale: string): string =>
  t(value === 1 ? 'units.device.one' : 'units.device.other', { n: count(value, locale) });

/** A moment in the operator's own time zone (the browser's), as Intl writes it in the language. */
export const localTime = (iso: string, locale: string): string =>
  new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
/** The same moment in UTC, unambiguous for an incident channel: "2026-11-28 14:05 UTC". */
export const utcTime = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const bytes = (size: number | null, t: Translate): string => {
  if (size === null) return t('common.unknown');
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
};

/**
 * A release's update policy: its contract name and value, and what an app does under it (the
 * catalogue's `policy.meaning.<Name>`, which in English is the contracts' UPDATE_POLICY_BEHAVIOUR).
 * Null (none set) is Default, as the app treats it. No table from values to words: the name comes
 * from the contracts.
 */
export const updatePolicy = (t: Translate, policy: number | null): string => {
  const name = updatePolicyName(policy);
  if (name === undefined) {
    return policy === null
      ? t('policy.notSet', { meaning: t('policy.meaning.Default'), value: UpdatePolicy.Default })
      : t('policy.unknown', { value: String(policy) });
  }
  return t('policy.label', { name, value: String(policy), meaning: t(`policy.meaning.${name}`) });
};
