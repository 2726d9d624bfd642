/**
 * The `runtime_version` label of `ferry_manifest_no_release_total`. The value comes from a
 * request header, so anyone can send any runtime version: a label per value would let one client
 * create series without end. A value is its own label only when it looks like a runtime version
 * (letters, digits and `._:()+-`, at most 64 characters: `1.4.0(41)`, `2.0.0-pre`, a fingerprint
 * hash) and while the instance holds fewer than MAX_NO_RELEASE_SERIES series; anything else, and
 * every new value once the series are full, counts as `other`. The limit lasts the life of the
 * process: series are never dropped and replaced, which would churn them in Prometheus as surely.
 */
export const MAX_NO_RELEASE_SERIES = 100;
export const OTHER_RUNTIME_VERSION = 'other';

const WELL_FORMED = /^[0-9A-Za-z][0-9A-Za-z._:()+-]*$/;
const MAX_LENGTH = 64;

/** The label a runtime version counts under, given how many series the metric already holds. */
export function runtimeVersionLabel(runtimeVersion: string, series: number): string {
  if (series >= MAX_NO_RELEASE_SERIES || runtimeVersion.length > MAX_LENGTH) return OTHER_RUNTIME_VERSION;
  return WELL_FORMED.test(runtimeVersion) ? runtimeVersion : OTHER_RUNTIME_VERSION;
}
