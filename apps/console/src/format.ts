import { type Track, updatePolicyName } from '@ferry/contracts';

export const trackLabel = (t: Track): string => `${t.channel} · ${t.platform} · ${t.runtimeVersion}`;
export const sameTrack = (a: Track, b: Track): boolean =>
  a.channel === b.channel && a.platform === b.platform && a.runtimeVersion === b.runtimeVersion;
export const shortId = (id: string): string => id.slice(0, 8);
export const shortFingerprint = (fingerprint: string): string =>
  fingerprint.length > 12 ? `${fingerprint.slice(0, 12)}…` : fingerprint;
export const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
export const dateTime = (iso: string): string =>
  `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
export const bytes = (size: number | null): string => {
  if (size === null) return 'unknown';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
};
/** A release's update policy by its contract name (null: none set, which the app treats as Default). */
export const updatePolicy = (policy: number | null): string =>
  policy === null ? 'default' : `${policy} (${updatePolicyName(policy) ?? 'custom'})`;
