// Types of @ferry/expo/config (the implementation is plain JavaScript in index.cjs).

/** An OTA channel; the same two values as `Channel` in @ferry/contracts. */
export type Channel = 'development' | 'production';

/** The APP_ENV values of the spec's "Environment to channel" table. */
export type AppEnv = 'local' | 'development' | 'qa' | 'production' | 'canary';

/** Which API address serves the manifest: none (updates off), the development API or the production API. */
export type ManifestAddress = 'none' | 'development' | 'production';

export interface AppEnvSettings {
  readonly channel: Channel;
  readonly manifestAddress: ManifestAddress;
  readonly updatesEnabled: boolean;
}

export declare const APP_ENVS: readonly AppEnv[];
export declare const APP_ENV_TABLE: Readonly<Record<AppEnv, AppEnvSettings>>;
/** 'local': an unset APP_ENV never subscribes a build to a channel. */
export declare const DEFAULT_APP_ENV: 'local';
export declare const MANIFEST_PATH: '/api/updates/manifest';
export declare const CODE_SIGNING_ALG: 'rsa-v1_5-sha256';
/** The server's default OTA_SIGNING_KEY_ID. */
export declare const DEFAULT_KEY_ID: 'main';

export declare function isAppEnv(value: unknown): value is AppEnv;
/** undefined, null or '' → 'local'; an unknown value throws a TypeError naming the valid ones. */
export declare function parseAppEnv(value: string | null | undefined): AppEnv;
export declare function appEnvSettings(appEnv: string | null | undefined): AppEnvSettings;
export declare function channelFor(appEnv: string | null | undefined): Channel;

export interface RuntimeVersionInput {
  /** APP_VERSION, e.g. "2.3.0". */
  appVersion: string;
  /** The platform's own build number: IOS_BUILD_NUMBER or ANDROID_VERSION_CODE. Ignored for pre-releases. */
  buildNumber?: number | string | null;
  /** IS_PRERELEASE. */
  isPrerelease: boolean;
}

/** `<APP_VERSION>(<BUILD_NUMBER>)`, or `<APP_VERSION>-pre` when isPrerelease; throws TypeError on malformed input. */
export declare function runtimeVersionFor(input: RuntimeVersionInput): string;

export interface ReleaseControlInput {
  appVersion: string;
  iosBuildNumber?: number | string | null;
  androidVersionCode?: number | string | null;
  isPrerelease: boolean;
}

/** Both platforms' runtimeVersions, for `ios.runtimeVersion` and `android.runtimeVersion`. */
export declare function runtimeVersionsFor(input: ReleaseControlInput): { ios: string; android: string };

/** `/api/apps/<app>/manifest`: where the builds of an app ask for updates; throws TypeError for a value that is not an app slug. */
export declare function appManifestPath(app: string): string;

/**
 * `<apiUrl>/api/apps/<app>/manifest` when `app` is given, else `<apiUrl>/api/updates/manifest` (kept
 * as is when apiUrl already ends with it).
 */
export declare function manifestUrlFor(apiUrl: string, name: string, app?: string): string;

export interface UpdatesConfigOptions {
  /** Development API address (e.g. https://dev-api.example.com); used by development, qa and canary. */
  developmentUrl?: string;
  /** Production API address; used by production. */
  productionUrl?: string;
  /** Path, relative to the app root, of the code-signing certificate (PEM). Required when updates are enabled. */
  codeSigningCertificate?: string;
  /** keyid of the signature; must match the server's OTA_SIGNING_KEY_ID (an app's key id). Default 'main'. */
  keyid?: string;
  /**
   * The app on the Ferry server (its slug): the builds ask `/api/apps/<app>/manifest`. Absent: the
   * default app's `/api/updates/manifest`, as before there were apps.
   */
  app?: string;
}

/** The `updates` block of an Expo app config. */
export interface UpdatesConfig {
  enabled: boolean;
  checkAutomatically: 'ON_LOAD';
  fallbackToCacheTimeout: 0;
  requestHeaders: { 'expo-channel-name': Channel };
  /** Absent for APP_ENV=local (no manifest address). */
  url?: string;
  codeSigningCertificate?: string;
  codeSigningMetadata?: { keyid: string; alg: 'rsa-v1_5-sha256' };
}

export declare function updatesConfig(appEnv: string | null | undefined, options?: UpdatesConfigOptions): UpdatesConfig;
