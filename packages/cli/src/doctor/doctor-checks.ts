import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PLATFORMS, type Platform } from '@ferry/contracts';
import type { AppCodeSigning, CodeSigningEvaluator } from '../code-signing/app-code-signing.js';
import { certificateCoverageProblem } from '../code-signing/certificate-coverage.js';
import { checkServerSignature, readCertificate } from '../code-signing/server-signature-check.js';
import type { AppFingerprintTool, FingerprintConfigInfo } from '../fingerprint/app-fingerprint.js';
import type { FerryClient } from '../http/ferry-client.js';
import { type AppConfigEvaluator, channelOf, type PublicAppConfig, runtimeVersionOf } from '../publish/app-config.js';
import { readExportedUpdate } from '../publish/exported-update.js';
import { type ManifestProbe, probeManifest } from './manifest-probe.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the doctor's report: what was checked, what was found, and what to do about it. */
export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

/** The app as the doctor found it; later checks use what earlier ones resolved. */
export interface AppFacts {
  /** The config resolved with updates on: the checks of the certificate and the server can run. */
  usable?: boolean;
  config?: PublicAppConfig;
  runtimeVersions?: Record<Platform, string>;
  updatesUrl?: string;
  requestHeaders?: Record<string, string>;
  codeSigning?: AppCodeSigning;
}

export interface DoctorContext {
  projectRoot: string;
  env: Record<string, string | undefined>;
  evaluateAppConfig: AppConfigEvaluator;
  codeSigning: CodeSigningEvaluator;
  resolveFingerprintTool: (projectRoot: string) => AppFingerprintTool;
  loadFingerprintConfig: (projectRoot: string) => FingerprintConfigInfo | undefined;
  /** Whether git ignores the file (undefined: not a git repository, or git is missing). */
  gitIgnores: (projectRoot: string, file: string) => boolean | undefined;
  fetch?: typeof fetch;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** 1. The app config evaluates, with updates on, a manifest URL, a channel and a runtimeVersion per platform. */
export async function checkConfig(context: DoctorContext, facts: AppFacts): Promise<CheckResult> {
  const check = 'the app config resolves';
  const appEnv = context.env.APP_ENV || undefined;
  try {
    facts.config = await context.evaluateAppConfig(context.projectRoot);
    facts.codeSigning = await context.codeSigning(context.projectRoot);
  } catch (error) {
    return {
      check,
      status: 'fail',
      detail: messageOf(error),
      fix: 'run `npx expo config` in the app to see the error',
    };
  }
  const updates = (facts.config.updates ?? {}) as {
    enabled?: unknown;
    url?: unknown;
    requestHeaders?: Record<string, unknown>;
  };
  if (updates.enabled === false || typeof updates.url !== 'string') {
    return {
      check,
      status: 'fail',
      detail: `updates are off, or have no URL, for APP_ENV=${appEnv ?? '(unset, which is local)'}`,
      fix: 'run the doctor with the APP_ENV you publish (APP_ENV=production npx ferry doctor); `npx ferry init` writes the updates config',
    };
  }
  try {
    facts.runtimeVersions = {
      ios: runtimeVersionOf(facts.config, 'ios'),
      android: runtimeVersionOf(facts.config, 'android'),
    };
  } catch (error) {
    return {
      check,
      status: 'fail',
      detail: messageOf(error),
      fix: 'set ios.runtimeVersion and android.runtimeVersion with runtimeVersionsFor()',
    };
  }
  facts.updatesUrl = updates.url;
  facts.requestHeaders = Object.fromEntries(
    Object.entries(updates.requestHeaders ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  facts.usable = true;
  const channel = channelOf(facts.config);
  const tracks = PLATFORMS.map((platform) => `${platform} ${facts.runtimeVersions![platform]}`).join(', ');
  if (channel === undefined) {
    return {
      check,
      status: 'warn',
      detail: `no channel in updates.requestHeaders; ${tracks}; updates from ${updates.url}`,
      fix: 'updatesConfig() of @ferry/expo/config sends expo-channel-name; without it the builds ask for no channel',
    };
  }
  return {
    check,
    status: 'ok',
    detail: `APP_ENV=${appEnv ?? '(unset)'}: channel ${channel}; ${tracks}; updates from ${updates.url}`,
  };
}

/** 2. expo-updates is installed, with the @expo/fingerprint it computes with. */
export function checkExpoUpdates(context: DoctorContext): CheckResult {
  const check = 'expo-updates is installed';
  try {
    const tool = context.resolveFingerprintTool(context.projectRoot);
    return {
      check,
      status: 'ok',
      detail: `expo-updates ${tool.expoUpdates.version}, @expo/fingerprint ${tool.fingerprint.version}`,
    };
  } catch (error) {
    return { check, status: 'fail', detail: messageOf(error), fix: '`npx expo install expo-updates`, then `npm ci`' };
  }
}

/**
 * 3. The certificate: named by the config, present, committed, hashed by the fingerprint, and the
 * one the server signs with (its signature over a fresh nonce verified as a device would).
 */
export async function checkCertificate(
  context: DoctorContext,
  facts: AppFacts,
  client: Pick<FerryClient, 'codeSigning' | 'codeSigningPath'> | undefined,
): Promise<CheckResult> {
  const check = "the certificate matches the server's signature";
  if (!facts.usable) return { check, status: 'skip', detail: 'the app config did not resolve' };
  const app = facts.codeSigning;
  if (!app) {
    return {
      check,
      status: 'fail',
      detail:
        'the app config names no updates.codeSigningCertificate: builds would not check that updates come from your server',
      fix: 'pass codeSigningCertificate to updatesConfig() (`npx ferry init` does)',
    };
  }
  const file = app.certificatePath;
  const pem = await readCertificate(app.certificateFile);
  if (pem !== undefined && context.gitIgnores(context.projectRoot, file) === true) {
    return {
      check,
      status: 'fail',
      detail: `${file} is ignored by git, so CI and the store builds never get it (Expo's templates ignore *.pem)`,
      fix: `add \`!${file}\` at the end of .gitignore (\`npx ferry init\` does), then commit it`,
    };
  }
  try {
    const fingerprintConfig = context.loadFingerprintConfig(context.projectRoot);
    const problem = fingerprintConfig?.ferryPreset
      ? certificateCoverageProblem(fingerprintConfig.file, fingerprintConfig.ferryPreset, app)
      : undefined;
    if (problem) return { check, status: 'fail', detail: problem };
  } catch (error) {
    return { check, status: 'fail', detail: messageOf(error) };
  }
  if (!client) {
    return {
      check,
      status: 'fail',
      detail: 'no server to check it with',
      fix: 'pass --server <url> or set OTA_SERVER_URL',
    };
  }
  const verdict = await checkServerSignature(client, app);
  if (!verdict.ok) return { check, status: 'fail', detail: verdict.message };
  return {
    check,
    status: 'ok',
    detail: `${file} (SHA-256 ${verdict.certificateSha256}) verifies the server's signatures, key id ${app.keyId}`,
  };
}

const describeProbe = (platform: Platform, track: string, probe: ManifestProbe, certificate?: string): CheckResult => {
  const check = 'the server answers for this runtime version and channel';
  switch (probe.kind) {
    case 'update':
      if (probe.signature === 'not-verified' || probe.signature === 'unsigned') {
        return {
          check,
          status: 'fail',
          detail: `${platform}: ${track}: update ${probe.id}, but its signature ${probe.signature === 'unsigned' ? 'is missing' : `does not verify with ${certificate}`}: devices reject it`,
        };
      }
      return {
        check,
        status: 'ok',
        detail: `${platform}: ${track}: update ${probe.id}${probe.signature === 'verified' ? `, signature verified with ${certificate}` : ''}`,
      };
    case 'no-update':
      return {
        check,
        status: 'warn',
        detail: `${platform}: ${track}: no update yet (204): devices keep their embedded bundle`,
        fix: '`ferry publish` from CI publishes one',
      };
    case 'directive':
      return { check, status: 'ok', detail: `${platform}: ${track}: a roll back to the embedded bundle` };
    case 'refused':
      return {
        check,
        status: 'fail',
        detail: `${platform}: ${track}: the manifest endpoint answered ${probe.status}: ${probe.message}`,
        fix: 'check updates.url (the server’s API address; the manifest path is appended by updatesConfig())',
      };
    case 'unreachable':
      return {
        check,
        status: 'fail',
        detail: `${platform}: cannot reach the app's updates URL: ${probe.message}`,
        fix: 'start the server, or fix the API addresses in the app config',
      };
  }
};

/** 4. The manifest URL the builds ask answers this app's tracks, as a device would ask. */
export async function checkManifests(
  context: DoctorContext,
  facts: AppFacts,
  serverUrl?: string,
): Promise<CheckResult[]> {
  const check = 'the server answers for this runtime version and channel';
  if (!facts.updatesUrl || !facts.runtimeVersions)
    return [{ check, status: 'skip', detail: 'the app config did not resolve' }];
  const certificatePem = facts.codeSigning ? await readCertificate(facts.codeSigning.certificateFile) : undefined;
  const results: CheckResult[] = [];
  for (const platform of PLATFORMS) {
    const runtimeVersion = facts.runtimeVersions[platform];
    const channel = facts.requestHeaders?.['expo-channel-name'] ?? '(no channel)';
    const probe = await probeManifest({
      url: facts.updatesUrl,
      platform,
      runtimeVersion,
      requestHeaders: facts.requestHeaders ?? {},
      certificatePem,
      keyId: certificatePem ? facts.codeSigning?.keyId : undefined,
      fetch: context.fetch,
    });
    results.push(describeProbe(platform, `${channel}/${runtimeVersion}`, probe, facts.codeSigning?.certificatePath));
  }
  if (serverUrl && new URL(facts.updatesUrl).origin !== new URL(serverUrl).origin) {
    results.push({
      check,
      status: 'warn',
      detail: `the builds ask ${new URL(facts.updatesUrl).origin} for updates, but publishes go to ${new URL(serverUrl).origin}`,
      fix: 'make the app config’s API address and OTA_SERVER_URL name the same server (or one behind the other)',
    });
  }
  return results;
}

/** 5. The release token opens the release endpoints. */
export async function checkToken(
  context: DoctorContext,
  client: Pick<FerryClient, 'listReleases'> | undefined,
): Promise<CheckResult> {
  const check = 'the token works';
  if (!context.env.OTA_RELEASE_TOKEN) {
    return {
      check,
      status: 'fail',
      detail: 'OTA_RELEASE_TOKEN is not set',
      fix: 'set it to the server’s release token (a local server prints it, and keeps it in DATA_DIR/dev/release-token)',
    };
  }
  if (!client)
    return {
      check,
      status: 'fail',
      detail: 'no server to check it with',
      fix: 'pass --server <url> or set OTA_SERVER_URL',
    };
  try {
    await client.listReleases({ limit: 1 });
    return { check, status: 'ok', detail: 'the server accepts OTA_RELEASE_TOKEN (GET /api/updates/releases)' };
  } catch (error) {
    const { status, code } = error as { status?: number; code?: string };
    // A refusal of the app (another app's token, no such app) carries its own fix in its message.
    const ofApp = code === 'APP_FORBIDDEN' || code === 'APP_NOT_FOUND';
    return {
      check,
      status: 'fail',
      detail: messageOf(error),
      ...((status === 401 || status === 403) && !ofApp
        ? { fix: 'OTA_RELEASE_TOKEN is not this server’s release token: copy it from the server’s configuration' }
        : {}),
    };
  }
}

/** 6. An existing export holds both platforms (a web-only `npx expo export` does not). */
export async function checkExport(context: DoctorContext, distDir: string, given: boolean): Promise<CheckResult> {
  const check = 'the export contains both platforms';
  const shown = path.relative(context.projectRoot, distDir) || '.';
  if (!given && !fs.existsSync(path.join(distDir, 'metadata.json'))) {
    return {
      check,
      status: 'skip',
      detail: `no export in ${shown}/ (ferry publish exports both platforms itself)`,
      fix: 'to check one: npx expo export --platform ios --platform android, then npx ferry doctor --dist dist',
    };
  }
  try {
    const exported = await readExportedUpdate(distDir, [...PLATFORMS]);
    return {
      check,
      status: 'ok',
      detail: exported.map((e) => `${e.platform}: bundle and ${e.assets.length} asset(s)`).join('; '),
    };
  } catch (error) {
    return {
      check,
      status: 'fail',
      detail: messageOf(error),
      fix: 'npx expo export --platform ios --platform android (a plain `npx expo export` of a template with a web target renders the web app)',
    };
  }
}

/**
 * `git check-ignore`: whether git would leave the file out of commits (a file already committed is
 * not ignored, whatever the rules say).
 */
export function gitIgnores(projectRoot: string, file: string): boolean | undefined {
  const result = spawnSync('git', ['check-ignore', '--quiet', file], { cwd: projectRoot });
  if (result.error || (result.status !== 0 && result.status !== 1)) return undefined;
  return result.status === 0;
}
