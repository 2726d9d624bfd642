import { createRequire } from 'node:module';
import type { FingerprintSource, Options, SourceSkips } from '@expo/fingerprint';
import { CliError } from '../cli-error.js';

/**
 * The ONE place that fixes how Ferry computes native fingerprints. The publisher and the gate both
 * come through here, because hashes differ between @expo/fingerprint versions and presets: a
 * mismatch would make the guard compare apples with oranges. Changing either value changes every
 * fingerprint, so the first production publish afterwards needs OTA_ALLOW_NATIVE_CHANGE=1.
 */
export const FINGERPRINT_PACKAGE_VERSION = '0.21.1';
/** `strict` hashes native modules and config plugins as files (spec: "internal file change"). */
export const FINGERPRINT_PRESET = 'strict' as const;

/**
 * The preset's settings, passed explicitly: a project's fingerprint.config.js may add sources
 * (extraSources) but cannot loosen what the preset hashes.
 */
export const FINGERPRINT_OPTIONS = {
  preset: FINGERPRINT_PRESET,
  // SourceSkips.PackageJsonAndroidAndIosScriptsIfNotContainRun: the only skip of `strict`.
  sourceSkips: 512 as SourceSkips,
  nativeModuleSourceType: 'files',
  configPluginSourceType: 'files',
  hashAlgorithm: 'sha1',
  silent: true,
} as const satisfies Options;

const require = createRequire(import.meta.url);

export type FingerprintPlatform = 'ios' | 'android';

export interface PlatformFingerprint {
  hash: string;
  sources: FingerprintSource[];
}

function loadPinnedFingerprint(): typeof import('@expo/fingerprint') {
  const installed = (require('@expo/fingerprint/package.json') as { version: string }).version;
  if (installed !== FINGERPRINT_PACKAGE_VERSION) {
    throw new CliError(
      `@expo/fingerprint ${installed} is installed but Ferry pins ${FINGERPRINT_PACKAGE_VERSION}; ` +
        'fingerprints from another version are not comparable. Reinstall with npm ci.',
    );
  }
  return require('@expo/fingerprint');
}

/** Computes one platform's fingerprint of an installed project, with the pinned version and preset. */
export async function computeFingerprint(
  projectRoot: string,
  platform: FingerprintPlatform,
): Promise<PlatformFingerprint> {
  const fingerprint = loadPinnedFingerprint();
  const result = await fingerprint.createFingerprintAsync(projectRoot, {
    ...FINGERPRINT_OPTIONS,
    platforms: [platform],
  });
  assertCompleteSources(result.sources, platform);
  return { hash: result.hash, sources: result.sources };
}

const reasonsOf = (source: FingerprintSource): string[] => source.reasons ?? [];
const idOf = (source: FingerprintSource): string | undefined => ('id' in source ? source.id : undefined);

/** What must be in every fingerprint of an installed Expo project, and how to recognise it. */
export const REQUIRED_SOURCES: Array<{ name: string; present: (s: FingerprintSource) => boolean }> = [
  { name: 'the evaluated app config (expoConfig)', present: (s) => idOf(s) === 'expoConfig' },
  { name: 'the react-native package', present: (s) => reasonsOf(s).includes('package:react-native') },
  {
    name: 'the autolinking configuration',
    present: (s) => /AutolinkingConfig:/.test(idOf(s) ?? '') || reasonsOf(s).some((r) => /autolinking/i.test(r)),
  },
];

/**
 * @expo/fingerprint swallows each source's errors and quietly hashes what is left, so a project
 * that was not installed yields a small, wrong fingerprint with exit code 0. Refuse that.
 */
export function assertCompleteSources(sources: FingerprintSource[], platform: FingerprintPlatform): void {
  const missing = REQUIRED_SOURCES.filter((required) => !sources.some(required.present)).map((r) => r.name);
  if (missing.length > 0) {
    throw new CliError(
      `The ${platform} fingerprint lacks ${missing.join(', ')}. The project is not installed (or its app config ` +
        'failed to evaluate): run `npm ci` in the project and make sure `npx expo config` works, then retry.',
    );
  }
}
