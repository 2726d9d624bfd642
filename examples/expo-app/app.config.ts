import { appEnvSettings, parseAppEnv, runtimeVersionsFor, updatesConfig } from '@ferry/expo/config';
import type { ConfigContext, ExpoConfig } from 'expo/config';
import { ANDROID_VERSION_CODE, APP_VERSION, IOS_BUILD_NUMBER, IS_PRERELEASE } from './release.config';

/**
 * API addresses per manifest address of the APP_ENV table. They are part of the evaluated config,
 * hence of the native fingerprint: keep them committed here rather than in CI-only variables, so
 * the build, the publisher and the gate evaluate the same config.
 */
const API_ADDRESSES = {
  developmentUrl: process.env.FERRY_DEVELOPMENT_API_URL || 'https://dev-api.example.com',
  productionUrl: process.env.FERRY_PRODUCTION_API_URL || 'https://api.example.com',
};

/** The certificate embedded in the build; `ferry keys generate --out certs` writes it. */
const CODE_SIGNING_CERTIFICATE = './certs/certificate.pem';

export default ({ config }: ConfigContext): ExpoConfig => {
  // APP_ENV (spec table "Environment to channel"): local, development, qa, production, canary.
  const appEnv = parseAppEnv(process.env.APP_ENV);
  const { channel, updatesEnabled } = appEnvSettings(appEnv);
  // One function computes runtimeVersion for build, publish and gate (spec, "runtimeVersion rules").
  const runtimeVersions = runtimeVersionsFor({
    appVersion: APP_VERSION,
    iosBuildNumber: IOS_BUILD_NUMBER,
    androidVersionCode: ANDROID_VERSION_CODE,
    isPrerelease: IS_PRERELEASE,
  });

  return {
    ...config,
    name: 'Ferry Example',
    slug: 'ferry-example',
    scheme: 'ferry-example',
    version: APP_VERSION,
    orientation: 'portrait',
    icon: './assets/icon.png',
    userInterfaceStyle: 'automatic',
    ios: {
      bundleIdentifier: 'com.example.ferry',
      buildNumber: IOS_BUILD_NUMBER,
      runtimeVersion: runtimeVersions.ios,
    },
    android: {
      package: 'com.example.ferry',
      versionCode: ANDROID_VERSION_CODE,
      runtimeVersion: runtimeVersions.android,
    },
    // url, enabled, the channel request header and the code-signing certificate + metadata.
    updates: updatesConfig(appEnv, {
      ...API_ADDRESSES,
      codeSigningCertificate: updatesEnabled ? CODE_SIGNING_CERTIFICATE : undefined,
    }),
    extra: { appEnv, channel },
  };
};
