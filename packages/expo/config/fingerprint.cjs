'use strict';
// @ferry/expo/fingerprint: Ferry's fingerprint preset, for an app's fingerprint.config.js.
//
// Ferry's guard stores exactly what `npx expo-updates fingerprint:generate --platform <p>` prints:
// the app's own @expo/fingerprint, reading the app's fingerprint.config.js. This preset makes that
// value cover every native-determining input the spec lists (Publisher rule 5), whatever
// @expo/fingerprint version the app's Expo SDK installs:
//
// - native modules, added, removed, a new version or an internal file change: hashed as files
//   (`nativeModuleSourceType: 'files'`; @expo/fingerprint >= 0.21 hashes only name@version by default);
// - config plugins from node_modules and local plugin files: hashed as files
//   (`configPluginSourceType: 'files'`);
// - the release control file (release.config.js, …): named as a source of its own;
// - the code-signing certificate the build embeds (`updates.codeSigningCertificate`), by its bytes:
//   a build verifies every manifest with it, so a new certificate is a new binary. The app config
//   names only its path, which is all @expo/fingerprint sees of it. The key id and the updates URL
//   are in the evaluated app config, hashed whole below;
// - the evaluated app config, whole: versions, runtimeVersion, names, ids, schemes, assets (no
//   `sourceSkips` beyond the one of `strict`);
// - the autolinking configuration with its paths, the react-native version, package.json scripts,
//   .gitignore, patches/, eas.json and .easignore.
//
// That is @expo/fingerprint's `strict` preset, written out so that versions without presets
// (0.20 and older, Expo SDK 57 and older) read the same settings. Each version reads the keys it
// knows and ignores the others.
//
// Plain CommonJS on purpose: @expo/fingerprint loads fingerprint.config.js with require(), and
// swallows any error while doing so (it then hashes with its defaults). `ferry publish` and
// `ferry gate` load the config themselves first and refuse one that throws.

const fs = require('node:fs');
const path = require('node:path');

/**
 * The preset's revision; a change of what it hashes raises it (and changes every fingerprint).
 * 2: the code-signing certificate's bytes are a source.
 */
const FERRY_FINGERPRINT_PRESET_VERSION = 2;

/** Marks a config made by this preset; the ferry CLI reads it to say which preset a fingerprint used. */
const FERRY_FINGERPRINT_PRESET = Symbol.for('@ferry/expo/fingerprint-preset');

/** SourceSkips.PackageJsonAndroidAndIosScriptsIfNotContainRun: the only skip of `strict`. */
const STRICT_SOURCE_SKIPS = 512;

/** @expo/fingerprint's `strict` preset, written out (Presets.ts). */
const STRICT_SETTINGS = Object.freeze({
  preset: 'strict',
  sourceSkips: STRICT_SOURCE_SKIPS,
  nativeModuleSourceType: 'files',
  configPluginSourceType: 'files',
  hashAlgorithm: 'sha1',
});

/** Where an app keeps its release control values; the first that exists is named (as `ferry bump` finds it). */
const RELEASE_CONTROL_CANDIDATES = Object.freeze([
  'release.config.js',
  'release.config.cjs',
  'release.config.mjs',
  'release.js',
  'release.cjs',
  'release.mjs',
]);

/** Where Ferry's docs, `ferry keys generate --out certs` and `ferry init` put the certificate the build embeds. */
const DEFAULT_CODE_SIGNING_CERTIFICATE = 'certs/certificate.pem';

/** The id of the certificate's source in a fingerprint (a `contents` source: a missing file counts too). */
const CODE_SIGNING_SOURCE_ID = 'ferry:codeSigningCertificate';

/** Settings a preset user may not change: each would loosen what is hashed, or change every hash. */
const FIXED_KEYS = Object.freeze(Object.keys(STRICT_SETTINGS));
/** What may be given besides the fixed settings. */
const ALLOWED_KEYS = Object.freeze([
  'releaseControlFile',
  'codeSigningCertificate',
  'extraSources',
  'ignorePaths',
  'concurrentIoLimit',
  'debug',
]);

const isFile = (file) => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The release control file, relative to the project: the one given, or the first candidate found. */
function releaseControlFileOf(projectRoot, given) {
  if (given === false) return undefined;
  if (given !== undefined) {
    if (typeof given !== 'string' || given === '' || path.isAbsolute(given)) {
      throw new TypeError('releaseControlFile must be a path relative to the project, or false');
    }
    if (!isFile(path.join(projectRoot, given))) {
      throw new Error(`the release control file ${given} does not exist in ${projectRoot}`);
    }
    return given.split(path.sep).join('/');
  }
  const found = RELEASE_CONTROL_CANDIDATES.find((candidate) => isFile(path.join(projectRoot, candidate)));
  if (found === undefined) {
    throw new Error(
      `no release control file (${RELEASE_CONTROL_CANDIDATES.join(', ')}) in ${projectRoot}; ` +
        'name it with releaseControlFile, or pass releaseControlFile: false',
    );
  }
  return found;
}

/** A project-relative path as the app config writes it (`./certs/certificate.pem`), in one spelling. */
function projectRelative(projectRoot, given, name) {
  if (typeof given !== 'string' || given === '' || path.isAbsolute(given)) {
    throw new TypeError(`${name} must be a path relative to the project, or false`);
  }
  const relative = path.relative(projectRoot, path.resolve(projectRoot, given));
  if (relative === '' || relative.startsWith('..')) {
    throw new TypeError(`${name} must name a file inside the project (${given})`);
  }
  return relative.split(path.sep).join('/');
}

/**
 * The certificate as a `contents` source: its bytes, or that it is missing. A `file` source of a
 * missing file hashes to nothing, which would make a build without its certificate look like one
 * with it; a missing certificate is a different input, so it hashes differently.
 */
function codeSigningSourceOf(projectRoot, given) {
  if (given === false) return undefined;
  const file = projectRelative(projectRoot, given ?? DEFAULT_CODE_SIGNING_CERTIFICATE, 'codeSigningCertificate');
  let pem = null;
  try {
    pem = fs.readFileSync(path.join(projectRoot, file), 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
  }
  return {
    file,
    source: {
      type: 'contents',
      id: CODE_SIGNING_SOURCE_ID,
      contents: JSON.stringify({ file, certificate: pem }),
      reasons: ['codeSigningCertificate'],
    },
  };
}

/**
 * The fingerprint.config.js of a Ferry app:
 *
 *   const { ferryFingerprintConfig } = require('@ferry/expo/fingerprint');
 *   module.exports = ferryFingerprintConfig(__dirname);
 *
 * `projectRoot` is the app's directory (`__dirname` of fingerprint.config.js). Options:
 * `releaseControlFile` (relative path, or false when the app has none; default: the first of
 * release.config.js, release.config.cjs, … that exists), `codeSigningCertificate` (the file the app
 * config names as `updates.codeSigningCertificate`, relative to the project, or false for an app
 * without code signing; default certs/certificate.pem), `extraSources` (added after those two),
 * `ignorePaths` (files the fingerprint must not see, for example a generated file; each one narrows
 * what the guard notices), `concurrentIoLimit`, `debug`. The strict settings cannot be overridden:
 * the guard's comparison base depends on them.
 */
function ferryFingerprintConfig(projectRoot, options = {}) {
  if (typeof projectRoot !== 'string' || !path.isAbsolute(projectRoot)) {
    throw new TypeError('ferryFingerprintConfig(projectRoot): pass __dirname of fingerprint.config.js');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('ferryFingerprintConfig(projectRoot, options): options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (FIXED_KEYS.includes(key)) {
      throw new Error(`${key} is fixed by Ferry's fingerprint preset (${JSON.stringify(STRICT_SETTINGS[key])})`);
    }
    if (!ALLOWED_KEYS.includes(key)) {
      throw new Error(`unknown option ${key} (allowed: ${ALLOWED_KEYS.join(', ')})`);
    }
  }
  const releaseControlFile = releaseControlFileOf(projectRoot, options.releaseControlFile);
  const codeSigning = codeSigningSourceOf(projectRoot, options.codeSigningCertificate);
  const extraSources = [
    ...(releaseControlFile === undefined
      ? []
      : [{ type: 'file', filePath: releaseControlFile, reasons: ['releaseControlFile'] }]),
    ...(codeSigning === undefined ? [] : [codeSigning.source]),
    ...(options.extraSources ?? []),
  ];
  const config = {
    ...STRICT_SETTINGS,
    extraSources,
    ...(options.ignorePaths === undefined ? {} : { ignorePaths: [...options.ignorePaths] }),
    ...(options.concurrentIoLimit === undefined ? {} : { concurrentIoLimit: options.concurrentIoLimit }),
    ...(options.debug === undefined ? {} : { debug: options.debug }),
  };
  // Not a key @expo/fingerprint reads (its loader copies only the keys it knows).
  Object.defineProperty(config, FERRY_FINGERPRINT_PRESET, {
    value: Object.freeze({
      version: FERRY_FINGERPRINT_PRESET_VERSION,
      releaseControlFile: releaseControlFile ?? null,
      codeSigningCertificate: codeSigning?.file ?? null,
    }),
    enumerable: true,
  });
  return config;
}

module.exports = {
  ferryFingerprintConfig,
  FERRY_FINGERPRINT_PRESET,
  FERRY_FINGERPRINT_PRESET_VERSION,
  STRICT_SETTINGS,
  RELEASE_CONTROL_CANDIDATES,
  DEFAULT_CODE_SIGNING_CERTIFICATE,
  CODE_SIGNING_SOURCE_ID,
};
