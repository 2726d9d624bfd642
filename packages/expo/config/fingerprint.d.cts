// Types of @ferry/expo/fingerprint (the implementation is plain JavaScript in fingerprint.cjs).
// The shapes follow @expo/fingerprint's `Config` and `HashSource`, written out so that an app can
// type its fingerprint.config.js without importing @expo/fingerprint itself.

/** A source @expo/fingerprint hashes besides its own (paths relative to the project). */
export type FingerprintExtraSource =
  | { type: 'file'; filePath: string; reasons: string[]; overrideHashKey?: string }
  | { type: 'dir'; filePath: string; reasons: string[]; overrideHashKey?: string }
  | { type: 'contents'; id: string; contents: string; reasons: string[] };

export interface FerryFingerprintOptions {
  /**
   * The release control file, relative to the project, or false when the app has none. Default: the
   * first of release.config.js, release.config.cjs, release.config.mjs, release.js, release.cjs,
   * release.mjs that exists (as `ferry bump` finds it); none found is an error.
   */
  releaseControlFile?: string | false;
  /**
   * The code-signing certificate the build embeds (the app config's `updates.codeSigningCertificate`),
   * relative to the project, or false for an app without code signing. Default: certs/certificate.pem.
   * Its bytes are hashed (a missing file hashes differently from any certificate): a build verifies
   * every manifest with it, so a new certificate is a native change.
   */
  codeSigningCertificate?: string | false;
  /** More sources to hash, after the release control file and the certificate. */
  extraSources?: FingerprintExtraSource[];
  /** Globs the fingerprint must not see; each one narrows what the native-change guard notices. */
  ignorePaths?: string[];
  /** I/O concurrency (does not change the hash). */
  concurrentIoLimit?: number;
  /** Adds debug information to each source (does not change the hash). */
  debug?: boolean;
}

/** What a fingerprint.config.js made by this preset exports (@expo/fingerprint's `Config`). */
export interface FerryFingerprintConfig {
  preset: 'strict';
  sourceSkips: 512;
  nativeModuleSourceType: 'files';
  configPluginSourceType: 'files';
  hashAlgorithm: 'sha1';
  extraSources: FingerprintExtraSource[];
  ignorePaths?: string[];
  concurrentIoLimit?: number;
  debug?: boolean;
  readonly [FERRY_FINGERPRINT_PRESET]: {
    readonly version: number;
    readonly releaseControlFile: string | null;
    /** The certificate hashed, relative to the project with `/` separators; null when none is. */
    readonly codeSigningCertificate: string | null;
  };
}

/**
 * The fingerprint.config.js of a Ferry app: @expo/fingerprint's `strict` preset written out, plus
 * the release control file and the code-signing certificate as sources of their own.
 *
 * ```js
 * const { ferryFingerprintConfig } = require('@ferry/expo/fingerprint');
 * module.exports = ferryFingerprintConfig(__dirname);
 * ```
 */
export declare function ferryFingerprintConfig(
  projectRoot: string,
  options?: FerryFingerprintOptions,
): FerryFingerprintConfig;

/** Symbol.for('@ferry/expo/fingerprint-preset'): marks a config made by this preset. */
export declare const FERRY_FINGERPRINT_PRESET: unique symbol;
export declare const FERRY_FINGERPRINT_PRESET_VERSION: number;
export declare const STRICT_SETTINGS: Readonly<{
  preset: 'strict';
  sourceSkips: 512;
  nativeModuleSourceType: 'files';
  configPluginSourceType: 'files';
  hashAlgorithm: 'sha1';
}>;
export declare const RELEASE_CONTROL_CANDIDATES: readonly string[];
/** certs/certificate.pem: where the certificate is unless `codeSigningCertificate` says otherwise. */
export declare const DEFAULT_CODE_SIGNING_CERTIFICATE: string;
/** The id of the certificate's `contents` source. */
export declare const CODE_SIGNING_SOURCE_ID: string;
