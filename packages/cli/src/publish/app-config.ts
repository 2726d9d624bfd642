import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Platform, RuntimeVersion } from '@ferry/contracts';
import { CliError } from '../cli-error.js';

/** The public app config (`getConfig(…, { isPublicConfig: true }).exp`): what the manifest serves as extra.expoClient. */
export type PublicAppConfig = Record<string, unknown>;

/** Evaluates a project's app config; swapped for a fake in tests that have no Expo install. */
export type AppConfigEvaluator = (projectRoot: string) => Promise<PublicAppConfig>;

interface ExpoConfigModule {
  getConfig(
    projectRoot: string,
    options: { isPublicConfig: boolean; skipSDKVersionRequirement: boolean },
  ): { exp: PublicAppConfig };
}

/**
 * Evaluates the app config with the project's own `expo/config` (@expo/config), the same code the
 * build and `expo export` run, so publish, gate and build see the same values. The public config
 * is what the manifest serves; the full one keeps what @expo/config leaves out of it, among them
 * `updates.codeSigningCertificate` and `updates.codeSigningMetadata`. A second evaluation in one
 * process reuses the modules the first loaded.
 */
export async function evaluateExpoConfig(projectRoot: string, options: { isPublicConfig: boolean }) {
  const projectRequire = createRequire(path.join(projectRoot, 'package.json'));
  let entry: string;
  try {
    entry = projectRequire.resolve('expo/config');
  } catch {
    throw new CliError(
      `Cannot evaluate the app config: expo is not installed in ${projectRoot}. Run \`npm ci\` there first.`,
    );
  }
  const loaded = (await import(pathToFileURL(entry).href)) as ExpoConfigModule & { default?: ExpoConfigModule };
  const getConfig = loaded.getConfig ?? loaded.default?.getConfig;
  if (!getConfig) throw new CliError(`${entry} does not export getConfig; is this an Expo project?`);
  try {
    return getConfig(projectRoot, { isPublicConfig: options.isPublicConfig, skipSDKVersionRequirement: true }).exp;
  } catch (error) {
    throw new CliError(`The app config failed to evaluate: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export const evaluateAppConfig: AppConfigEvaluator = (projectRoot) =>
  evaluateExpoConfig(projectRoot, { isPublicConfig: true });

const describeValue = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * The runtimeVersion the app config gives a platform (`<platform>.runtimeVersion`, else the top-level
 * one). Only strings are accepted: they are what `runtimeVersionFor()` computes for the spec's
 * `<APP_VERSION>(<BUILD_NUMBER>)` / `<APP_VERSION>-pre` scheme, and a policy object would make the
 * publisher compute what the build computed, which is how they drift apart.
 */
export function runtimeVersionOf(config: PublicAppConfig, platform: Platform): string {
  const platformConfig = config[platform] as { runtimeVersion?: unknown } | undefined;
  const value = platformConfig?.runtimeVersion ?? config.runtimeVersion;
  const hint =
    'Compute it in app.config.ts with runtimeVersionFor() from @ferry/expo/config and set ' +
    `${platform}.runtimeVersion to the resulting string.`;
  if (value === undefined || value === null || value === '') {
    throw new CliError(`The app config gives ${platform} no runtimeVersion. ${hint}`);
  }
  if (typeof value === 'object' && (value as { policy?: unknown }).policy === 'fingerprint') {
    throw new CliError(
      `The app config's ${platform} runtimeVersion is the "fingerprint" policy. Ferry never uses the fingerprint as ` +
        `runtimeVersion (the fingerprint is what the guard compares within one runtimeVersion). ${hint}`,
    );
  }
  if (typeof value !== 'string') {
    throw new CliError(`The app config's ${platform} runtimeVersion is ${describeValue(value)}, not a string. ${hint}`);
  }
  const parsed = RuntimeVersion.safeParse(value);
  if (!parsed.success) {
    throw new CliError(
      `The app config's ${platform} runtimeVersion ${describeValue(value)} is not usable: ${parsed.error.issues[0]?.message}.`,
    );
  }
  return parsed.data;
}

/** The channel the app config subscribes builds to (updates.requestHeaders), when it names one. */
export function channelOf(config: PublicAppConfig): string | undefined {
  const updates = config.updates as { requestHeaders?: Record<string, unknown> } | undefined;
  const headers = updates?.requestHeaders ?? {};
  const channel = headers['expo-channel-name'] ?? headers['ota-channel-name'];
  return typeof channel === 'string' ? channel : undefined;
}

/** The app config's updates.url: where its builds ask for updates (and so which app they belong to). */
export function updatesUrlOf(config: PublicAppConfig): string | undefined {
  const url = (config.updates as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}
