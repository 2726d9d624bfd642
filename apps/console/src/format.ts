import { type Track, UPDATE_POLICY_BEHAVIOUR, UpdatePolicy, updatePolicyName } from '@ferry/contracts';

export const trackLabel = (t: Track): string => `${t.channel} · ${t.platform} · ${t.runtimeVersion}`;
export const sameTrack = (a: Track, b: Track): boolean =>
  a.channel === b.channel && a.platform === b.platform && a.runtimeVersion === b.runtimeVersion;
export const shortId = (id: string): string => id.slice(0, 8);
export const shortFingerprint = (fingerprint: string): string =>
  fingerprint.length > 12 ? `${fingerprint.slice(0, 12)}…` : fingerprint;
export const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
/** A share as a whole-looking percentage: 0.5 → "50 %", 0.125 → "12.5 %". */
export const share = (ratio: number): string => `${Number((ratio * 100).toFixed(1))} %`;
/** A count with the operator's grouping: 1240 → "1,240". */
export const count = (value: number): string => new Intl.NumberFormat('en').format(value);

/** A moment in the operator's own time zone (the browser's), as Intl writes it. */
export const localTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
/** The same moment in UTC, unambiguous for an incident channel: "2026-11-28 14:05 UTC". */
export const utcTime = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const bytes = (size: number | null): string => {
  if (size === null) return 'unknown';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
};

/**
 * A release's update policy: its contract name and value, and what an app does under it, in the
 * contracts' words (UPDATE_POLICY_BEHAVIOUR). Null (none set) is Default, as the app treats it.
 */
export const updatePolicy = (policy: number | null): string => {
  const name = updatePolicyName(policy);
  if (name === undefined) {
    return policy === null
      ? `not set: ${UPDATE_POLICY_BEHAVIOUR.Default} (Default, ${UpdatePolicy.Default})`
      : `${policy} (not a policy this console knows)`;
  }
  return `${name} (${policy}): ${UPDATE_POLICY_BEHAVIOUR[name]}`;
};
