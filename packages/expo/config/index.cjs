'use strict';
// Plain JavaScript on purpose: Expo's config loader transpiles only the entry app.config.ts, and
// the ferry CLI (publish, gate, bump) loads these helpers with plain Node. Types live in index.d.ts.

/** The manifest endpoint, relative to an API address: the default app's, from before there were apps. */
const MANIFEST_PATH = '/api/updates/manifest';

/**
 * An app slug, as `AppSlug` of @ferry/contracts checks it (this file stays plain JavaScript with no
 * dependency: Expo's config loader requires it with plain Node). test/config/updates-config.test.ts
 * holds the two to the same answers.
 */
const APP_SLUG_PATTERN = /^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;

/** The end of any manifest URL: the default app's from before apps, or an app's. */
const ANY_MANIFEST_PATH = /\/api\/(?:updates|apps\/[^/]+)\/manifest$/;

/** The manifest endpoint of an app, relative to an API address (appManifestPath of @ferry/contracts). */
function appManifestPath(app) {
  if (typeof app !== 'string' || !APP_SLUG_PATTERN.test(app)) {
    throw new TypeError(
      `app must be an app slug: 2–40 lowercase letters, digits and single hyphens, starting with a letter (got ${JSON.stringify(app)})`,
    );
  }
  return `/api/apps/${app}/manifest`;
}

/** The code-signing algorithm of every Ferry manifest (RSA PKCS#1 v1.5 with SHA-256). */
const CODE_SIGNING_ALG = 'rsa-v1_5-sha256';

/** The server's default OTA_SIGNING_KEY_ID. */
const DEFAULT_KEY_ID = 'main';

/** Spec table "Environment to channel (APP_ENV)"; frozen so no caller can edit the shared truth. */
const APP_ENV_TABLE = Object.freeze({
  local: Object.freeze({ channel: 'development', manifestAddress: 'none', updatesEnabled: false }),
  development: Object.freeze({ channel: 'development', manifestAddress: 'development', updatesEnabled: true }),
  qa: Object.freeze({ channel: 'development', manifestAddress: 'development', updatesEnabled: true }),
  production: Object.freeze({ channel: 'production', manifestAddress: 'production', updatesEnabled: true }),
  canary: Object.freeze({ channel: 'development', manifestAddress: 'development', updatesEnabled: true }),
});

const APP_ENVS = Object.freeze(Object.keys(APP_ENV_TABLE));

/** An unset APP_ENV means a local build: updates off, so a forgotten variable never subscribes to a channel. */
const DEFAULT_APP_ENV = 'local';

function isAppEnv(value) {
  return typeof value === 'string' && Object.hasOwn(APP_ENV_TABLE, value);
}

/** Validates an APP_ENV value; undefined or '' falls back to 'local', anything unknown throws. */
function parseAppEnv(value) {
  if (value === undefined || value === null || value === '') return DEFAULT_APP_ENV;
  if (isAppEnv(value)) return value;
  throw new TypeError(`APP_ENV must be one of ${APP_ENVS.join(', ')} (got ${JSON.stringify(String(value))})`);
}

/** The row of the APP_ENV table for an environment. */
function appEnvSettings(appEnv) {
  return APP_ENV_TABLE[parseAppEnv(appEnv)];
}

/** The OTA channel an environment subscribes to. */
function channelFor(appEnv) {
  return appEnvSettings(appEnv).channel;
}

// Printable ASCII without '(' and ')' so the build number stays unambiguous inside the runtimeVersion.
const APP_VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,99}$/;
// iOS build numbers may be dotted ("57" or "1.0.57"); Android version codes are positive integers.
const BUILD_NUMBER_PATTERN = /^[0-9]+(?:\.[0-9]+){0,2}$/;

function assertAppVersion(appVersion) {
  if (typeof appVersion !== 'string' || !APP_VERSION_PATTERN.test(appVersion) || appVersion.endsWith('-pre')) {
    throw new TypeError(
      `appVersion must be a version such as "2.3.0" (letters, digits, ".", "+", "_", "-"; not ending in "-pre"), got ${JSON.stringify(appVersion)}`,
    );
  }
}

function normalizeBuildNumber(buildNumber) {
  const text = typeof buildNumber === 'number' && Number.isSafeInteger(buildNumber) ? String(buildNumber) : buildNumber;
  if (typeof text !== 'string' || !BUILD_NUMBER_PATTERN.test(text) || /^0+$/.test(text)) {
    throw new TypeError(
      `buildNumber must be a positive integer or a dotted iOS build number such as "1.0.57", got ${JSON.stringify(buildNumber)}`,
    );
  }
  return text;
}

/**
 * Spec "runtimeVersion rules": `<APP_VERSION>(<BUILD_NUMBER>)` for store builds, `<APP_VERSION>-pre`
 * for pre-releases (the build number is then ignored: every pre-release build shares one track).
 */
function runtimeVersionFor(input) {
  const { appVersion, buildNumber, isPrerelease } = input ?? {};
  assertAppVersion(appVersion);
  if (typeof isPrerelease !== 'boolean') {
    throw new TypeError(`isPrerelease must be a boolean, got ${JSON.stringify(isPrerelease)}`);
  }
  if (isPrerelease) return `${appVersion}-pre`;
  return `${appVersion}(${normalizeBuildNumber(buildNumber)})`;
}

/** Both platforms' runtimeVersions from one release control file's values. */
function runtimeVersionsFor(input) {
  const { appVersion, iosBuildNumber, androidVersionCode, isPrerelease } = input ?? {};
  return {
    ios: runtimeVersionFor({ appVersion, buildNumber: iosBuildNumber, isPrerelease }),
    android: runtimeVersionFor({ appVersion, buildNumber: androidVersionCode, isPrerelease }),
  };
}

/**
 * `<api address><manifest path>`: the app's (`/api/apps/<app>/manifest`) when `app` is given, else
 * MANIFEST_PATH. An address that already ends in that manifest path is kept as is.
 */
function manifestUrlFor(apiUrl, name, app) {
  const manifestPath = app === undefined ? MANIFEST_PATH : appManifestPath(app);
  let url;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new TypeError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(apiUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(apiUrl)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(manifestPath) && ANY_MANIFEST_PATH.test(path)) {
    // Appending would ask a path no server answers: the address names another app's manifest.
    throw new TypeError(`${name} ends in another manifest path than ${manifestPath}, got ${JSON.stringify(apiUrl)}`);
  }
  url.pathname = path.endsWith(manifestPath) ? path : `${path}${manifestPath}`;
  return url.toString();
}

/**
 * The `updates` block of an Expo app config for an APP_ENV: manifest URL, enabled flag, the channel
 * request header and the code-signing fields. Updates-enabled environments require the certificate:
 * a build that cannot verify manifest signatures must never be produced by accident.
 */
function updatesConfig(appEnv, options) {
  const env = parseAppEnv(appEnv);
  const settings = APP_ENV_TABLE[env];
  const { developmentUrl, productionUrl, codeSigningCertificate, keyid = DEFAULT_KEY_ID, app } = options ?? {};
  const config = {
    enabled: settings.updatesEnabled,
    // Check on load and never block the launch: a downloaded update applies at the next cold start
    // (Default policy) unless the app SDK reloads earlier (Notify banner tap, Immediate).
    checkAutomatically: 'ON_LOAD',
    fallbackToCacheTimeout: 0,
    requestHeaders: { 'expo-channel-name': settings.channel },
  };
  if (settings.manifestAddress !== 'none') {
    const name = settings.manifestAddress === 'production' ? 'productionUrl' : 'developmentUrl';
    const apiUrl = settings.manifestAddress === 'production' ? productionUrl : developmentUrl;
    config.url = manifestUrlFor(apiUrl, name, app);
  }
  if (typeof keyid !== 'string' || keyid === '') {
    throw new TypeError(`keyid must be a non-empty string, got ${JSON.stringify(keyid)}`);
  }
  if (typeof codeSigningCertificate === 'string' && codeSigningCertificate !== '') {
    config.codeSigningCertificate = codeSigningCertificate;
    config.codeSigningMetadata = { keyid, alg: CODE_SIGNING_ALG };
  } else if (settings.updatesEnabled) {
    throw new TypeError(
      `codeSigningCertificate (path to the PEM certificate embedded in the build) is required for APP_ENV=${env}`,
    );
  }
  return config;
}

module.exports = {
  APP_ENVS,
  APP_ENV_TABLE,
  CODE_SIGNING_ALG,
  DEFAULT_APP_ENV,
  DEFAULT_KEY_ID,
  MANIFEST_PATH,
  appEnvSettings,
  appManifestPath,
  channelFor,
  isAppEnv,
  manifestUrlFor,
  parseAppEnv,
  runtimeVersionFor,
  runtimeVersionsFor,
  updatesConfig,
};
