/**
 * The files `ferry init` writes into an Expo app: what docs/add-to-an-app.md shows a team, and what
 * examples/expo-app holds (there in TypeScript). Plain CommonJS: Expo's config loader and
 * @expo/fingerprint require them with plain Node.
 */

/** Where the build's code-signing certificate lives (the preset's default, `ferry keys generate --out certs`). */
export const CERTIFICATE_PATH = 'certs/certificate.pem';
/** A JavaScript string literal in single quotes, as the rest of these files are written. */
const js = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Where a generated private key is written, git-ignored, until it moves to the server's secrets. */
export const PRIVATE_KEY_PATH = 'certs/private-key.pem';

export interface ReleaseValues {
  appVersion: string;
  androidVersionCode: number;
  iosBuildNumber: string;
}

export function releaseConfigFile(values: ReleaseValues): string {
  return `// Release control values (docs/pipeline.md), set by a person per release. Plain JavaScript: the app
// config requires it, and \`ferry bump\` rewrites the literals in place.

/** Marketing version shown in the stores; raised by a person at a store release (ferry bump patch|minor|major). */
const APP_VERSION = ${js(values.appVersion)};
/** Android versionCode: only ever goes up (ferry bump build). */
const ANDROID_VERSION_CODE = ${values.androidVersionCode};
/** iOS build number: only ever goes up (ferry bump build). */
const IOS_BUILD_NUMBER = ${js(values.iosBuildNumber)};
/** true: runtimeVersion \`<APP_VERSION>-pre\`, the native-change guard is off and store deploys refuse the build. */
const IS_PRERELEASE = false;

module.exports = { APP_VERSION, ANDROID_VERSION_CODE, IOS_BUILD_NUMBER, IS_PRERELEASE };
`;
}

export interface AppConfigValues {
  /** The release control file as required from the app config (`./release.config`). */
  releaseModule: string;
  developmentUrl: string;
  productionUrl: string;
  keyId: string;
  /** The app on the Ferry server (`ferry init --app`); absent: the default app's updates URL from before apps. */
  app?: string;
}

/** The app's constant, when the config names one: its builds ask the app's own manifest path. */
const appConstant = (app: string | undefined): string =>
  app === undefined
    ? ''
    : `/** The app on the Ferry server: builds ask /api/apps/<app>/manifest, and the ferry CLI acts on it. */
const APP = ${js(app)};
`;

export function appConfigFile(values: AppConfigValues): string {
  return `// Written by \`ferry init\` (docs/add-to-an-app.md). app.json stays the base of the app config; this
// adds what Ferry needs: the release values, each platform's runtimeVersion, and per APP_ENV the
// updates URL, the channel request header and code signing (updatesConfig() of @ferry/expo/config).
// Everything here is part of the native fingerprint: the build, \`ferry publish\` and \`ferry gate\`
// evaluate this same file.
const { appEnvSettings, parseAppEnv, runtimeVersionsFor, updatesConfig } = require('@ferry/expo/config');
const { ANDROID_VERSION_CODE, APP_VERSION, IOS_BUILD_NUMBER, IS_PRERELEASE } = require(${js(values.releaseModule)});

/** The Ferry server of each APP_ENV's channel (API addresses; the manifest path is appended). */
const API_ADDRESSES = {
  developmentUrl: ${js(values.developmentUrl)},
  productionUrl: ${js(values.productionUrl)},
};
/** The certificate every build embeds and verifies each update with (committed; the server keeps its key). */
const CODE_SIGNING_CERTIFICATE = './${CERTIFICATE_PATH}';
/** The server's OTA_SIGNING_KEY_ID. */
const KEY_ID = ${js(values.keyId)};
${appConstant(values.app)}
module.exports = ({ config }) => {
  // APP_ENV: local (also unset: updates off), development, qa, production, canary.
  const appEnv = parseAppEnv(process.env.APP_ENV);
  const { channel, updatesEnabled } = appEnvSettings(appEnv);
  // <APP_VERSION>(<build number>) per platform, <APP_VERSION>-pre for a pre-release.
  const runtimeVersions = runtimeVersionsFor({
    appVersion: APP_VERSION,
    iosBuildNumber: IOS_BUILD_NUMBER,
    androidVersionCode: ANDROID_VERSION_CODE,
    isPrerelease: IS_PRERELEASE,
  });
  return {
    ...config,
    version: APP_VERSION,
    ios: { ...config.ios, buildNumber: IOS_BUILD_NUMBER, runtimeVersion: runtimeVersions.ios },
    android: { ...config.android, versionCode: ANDROID_VERSION_CODE, runtimeVersion: runtimeVersions.android },
    updates: {
      ...config.updates,
      ...updatesConfig(appEnv, {
        ...API_ADDRESSES,${values.app === undefined ? '' : '\n        app: APP,'}
        codeSigningCertificate: updatesEnabled ? CODE_SIGNING_CERTIFICATE : undefined,
        keyid: KEY_ID,
      }),
    },
    extra: { ...config.extra, appEnv, channel },
  };
};
`;
}

export const FINGERPRINT_CONFIG_FILE = `// Read by @expo/fingerprint: by \`npx expo-updates fingerprint:generate --platform <p>\` and, in the
// same way, by \`ferry publish\` and \`ferry gate\`. Ferry's preset is @expo/fingerprint's \`strict\`
// preset written out, plus the release control file and the code-signing certificate (${CERTIFICATE_PATH})
// as sources of their own: every native input the native-change guard must see
// (docs/publishing.md, "The fingerprint"). Keep this file committed.
const { ferryFingerprintConfig } = require('@ferry/expo/fingerprint');

module.exports = ferryFingerprintConfig(__dirname);
`;

/** The lines `ferry init` appends to .gitignore, after everything else (in git's rules the last match wins). */
export const GITIGNORE_BLOCK = `# Ferry (ferry init): the code-signing certificate is part of every build and is committed
# (Expo's templates ignore *.pem); its private key never is.
!/certs/
!/${CERTIFICATE_PATH}
/${PRIVATE_KEY_PATH}
`;
