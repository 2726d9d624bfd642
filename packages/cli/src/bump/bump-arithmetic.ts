import semver from 'semver';

export type BumpKind = 'build' | 'patch' | 'minor' | 'major';
export const BUMP_KINDS: readonly BumpKind[] = ['build', 'patch', 'minor', 'major'];

/** A store tag `native-v<APP_VERSION>+<ANDROID_VERSION_CODE>` (spec, Versioning rule 4). */
export interface NativeTag {
  tag: string;
  appVersion: string;
  androidVersionCode: number;
}

const NATIVE_TAG = /^native-v(.+)\+([0-9]+)$/;

export function parseNativeTag(tag: string): NativeTag | undefined {
  const match = NATIVE_TAG.exec(tag);
  if (!match) return undefined;
  const code = Number(match[2]);
  return Number.isSafeInteger(code) ? { tag, appVersion: match[1] as string, androidVersionCode: code } : undefined;
}

export function nativeTagName(appVersion: string, androidVersionCode: string | number): string {
  return `native-v${appVersion}+${androidVersionCode}`;
}

export class BumpError extends Error {
  override name = 'BumpError';
}

/** Android version codes are positive integers, written as a number or a digit string. */
export function androidCode(value: string | number): number {
  const code = typeof value === 'number' ? value : /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(code) || code < 1) {
    throw new BumpError(`ANDROID_VERSION_CODE must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return code;
}

/** iOS build numbers are "57" or dotted "1.0.57"; the last component goes up by one. */
export function nextIosBuildNumber(value: string | number): string | number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new BumpError(`IOS_BUILD_NUMBER must be a positive integer`);
    return value + 1;
  }
  if (!/^[0-9]+(?:\.[0-9]+){0,2}$/.test(value)) {
    throw new BumpError(
      `IOS_BUILD_NUMBER must be digits, optionally dotted ("57" or "1.0.57"), got ${JSON.stringify(value)}`,
    );
  }
  const parts = value.split('.');
  const last = parts.length - 1;
  parts[last] = String(Number(parts[last]) + 1);
  return parts.join('.');
}

/**
 * Spec, "Automatic bump": iOS build number + 1; Android version code = the highest code of any
 * store tag or the current value, + 1. Neither ever goes down or resets, whatever the tags say.
 */
export function nextBuildNumbers(
  current: { iosBuildNumber: string | number; androidVersionCode: string | number },
  tags: NativeTag[],
): { iosBuildNumber: string | number; androidVersionCode: number } {
  const highest = Math.max(androidCode(current.androidVersionCode), ...tags.map((tag) => tag.androidVersionCode));
  return { iosBuildNumber: nextIosBuildNumber(current.iosBuildNumber), androidVersionCode: highest + 1 };
}

/** APP_VERSION raised by patch, minor or major (semantic versioning; build metadata and pre-release dropped). */
export function nextAppVersion(appVersion: string, kind: Exclude<BumpKind, 'build'>): string {
  const parsed = semver.parse(appVersion);
  if (!parsed)
    throw new BumpError(`APP_VERSION must be a semantic version such as 1.4.0, got ${JSON.stringify(appVersion)}`);
  const next = semver.inc(`${parsed.major}.${parsed.minor}.${parsed.patch}`, kind);
  if (!next) throw new BumpError(`cannot raise ${appVersion} by ${kind}`);
  return next;
}
