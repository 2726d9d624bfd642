import { randomUUID } from 'node:crypto';
import type { Channel, Platform, ReleaseSummary, RolloutRequest } from '@ferry/contracts';
import { ASSET_COLLECTING_RETRY_SECONDS, FerryHttpError } from '@ferry/contracts';
import { chooseApp } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import type { CodeSigningEvaluator } from '../code-signing/app-code-signing.js';
import { checkServerSignature } from '../code-signing/server-signature-check.js';
import { FerryClient } from '../http/ferry-client.js';
import type { RetryPolicy } from '../http/retry.js';
import { type AppConfigEvaluator, channelOf, runtimeVersionOf, updatesUrlOf } from './app-config.js';
import { type UploadJob, uploadAssets } from './asset-uploader.js';
import { type GitReader, readCiMetadata } from './ci-metadata.js';
import type { Exporter } from './expo-export.js';
import { type ExportedFile, readExportedUpdate } from './exported-update.js';
import { formatBytes } from './format.js';
import { type Env, readPublishEnvironment } from './publish-environment.js';
import { buildReleasePlan, checkReleasePlan, withAssetUrls } from './release-payload.js';
import { createUploadProgress, type ProgressStream } from './upload-progress.js';

export interface PublishRequest {
  channel: Channel;
  platforms: Platform[];
  projectRoot: string;
  /** An existing export folder; when absent the publisher runs `npx expo export`. */
  distDir?: string;
  /** --server; OTA_SERVER_URL otherwise. */
  server?: string;
  /** --app; else OTA_APP; else the app the app config's updates.url names (app-choice.ts). */
  app?: string;
  concurrency: number;
  /** --message; undefined takes the commit subject, '' publishes without a message. */
  message?: string;
  /** --rollout and its halt rule: the share of devices that get the release. */
  rollout?: RolloutRequest;
}

/** Everything the publisher touches outside itself; tests swap config, fingerprint and export for fakes. */
export interface PublishDependencies {
  env: Env;
  out: ProgressStream;
  exporter: Exporter;
  evaluateAppConfig: AppConfigEvaluator;
  /** The certificate and key id the app's builds verify manifests with (its full app config). */
  codeSigning: CodeSigningEvaluator;
  fingerprint: (projectRoot: string, platform: Platform) => Promise<{ hash: string }>;
  git: GitReader;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  /** Waits between attempts (withAssetsAgain); tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ByteCount {
  count: number;
  bytes: number;
}

export interface PlatformPublishResult {
  platform: Platform;
  release: ReleaseSummary;
  uploaded: ByteCount;
  skipped: ByteCount;
}

/** Times a publish asks again which assets are missing after the server found some gone. */
export const ASSET_MISSING_ATTEMPTS = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a platform's publish again when the server refuses its release with ASSET_MISSING: assets
 * it found stored were deleted (a garbage collection) before the release committed. A new asset
 * check reports them missing, so the next attempt uploads them. When a collection was still deleting
 * them, the attempt waits for it first (the answer's `collecting`).
 */
export async function withAssetsAgain<T>(
  attempt: () => Promise<T>,
  options: { sleep: (ms: number) => Promise<void>; say: (collecting: number) => void },
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof FerryHttpError) || error.code !== 'ASSET_MISSING' || tries >= ASSET_MISSING_ATTEMPTS) {
        throw error;
      }
      const collecting = Array.isArray(error.details.collecting) ? error.details.collecting.length : 0;
      const missing = Array.isArray(error.details.missing) ? error.details.missing.length : 0;
      options.say(Math.max(collecting, missing));
      if (collecting > 0) await options.sleep(ASSET_COLLECTING_RETRY_SECONDS * 1000);
    }
  }
}

/** Exit code of a release the native-change guard refused. */
export const GUARD_REFUSED_EXIT_CODE = 2;

const uniqueByHash = (files: ExportedFile[]): ExportedFile[] => [
  ...new Map(files.map((file) => [file.hash, file])).values(),
];
const sum = (files: ExportedFile[]): ByteCount => ({
  count: files.length,
  bytes: files.reduce((total, file) => total + file.size, 0),
});

function guardRefusal(platform: Platform, error: FerryHttpError): CliError {
  const { baselineFingerprint, fingerprint } = error.details as { baselineFingerprint?: string; fingerprint?: string };
  const fingerprints =
    baselineFingerprint && fingerprint
      ? `\n  baseline fingerprint: ${baselineFingerprint}\n  this export:          ${fingerprint}`
      : '';
  return new CliError(
    `${platform}: the server refused the release (native-change guard, ${error.code}).\n  ${error.message}${fingerprints}`,
    GUARD_REFUSED_EXIT_CODE,
  );
}

/** Why the uploads stopped, for people: a full object store says what to do about it. */
function uploadFailure(platform: Platform, error: unknown): CliError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FerryHttpError && error.code === 'STORAGE_FULL') {
    return new CliError(
      `${platform}: the server's object storage is full (STORAGE_FULL): ${message}; nothing was published.\n` +
        '  The server operator must free space or raise the storage quota (docs/deployment.md, "Object storage full"). ' +
        'Then publish again: assets already uploaded are not sent twice.',
    );
  }
  return new CliError(`${platform}: ${message}; nothing was published.`);
}

/**
 * `ferry publish`: environment checks, app config, code signing, fingerprints, export, then per platform the
 * missing uploads and the release. Everything that can fail without touching the server is
 * checked before the first upload.
 */
export async function publishUpdate(
  request: PublishRequest,
  deps: PublishDependencies,
): Promise<PlatformPublishResult[]> {
  const environment = readPublishEnvironment(deps.env, { server: request.server });
  const say = (line: string) => deps.out.write(`${line}\n`);

  const otaConfig = await deps.evaluateAppConfig(request.projectRoot);
  const configuredChannel = channelOf(otaConfig);
  if (configuredChannel !== undefined && configuredChannel !== request.channel) {
    throw new CliError(
      `The app config subscribes builds to the ${configuredChannel} channel but you are publishing to ${request.channel}. ` +
        'Set APP_ENV for the environment you publish (for example APP_ENV=production for the production channel).',
    );
  }
  const runtimeVersions = new Map(request.platforms.map((p) => [p, runtimeVersionOf(otaConfig, p)]));
  // Before any request: an --app other than the one the builds ask for updates is refused here.
  const app = chooseApp({ flag: request.app, env: deps.env, updatesUrl: updatesUrlOf(otaConfig) });
  const client = new FerryClient({
    serverUrl: environment.serverUrl,
    token: environment.token,
    app,
    fetch: deps.fetch,
    retry: deps.retry,
  });

  // Before the export: a build that embeds this certificate must accept what the server signs,
  // or every device would reject every update of this release (and the next ones).
  const codeSigning = await deps.codeSigning(request.projectRoot);
  if (codeSigning) {
    const verdict = await checkServerSignature(client, codeSigning);
    if (!verdict.ok) {
      throw new CliError(`Refusing to publish updates the app's builds would reject. ${verdict.message}`);
    }
    process.stderr.write(
      `code signing: ${codeSigning.certificatePath} verifies the server's signatures (key id ${codeSigning.keyId})\n`,
    );
  } else {
    process.stderr.write(
      'warning: the app config names no updates.codeSigningCertificate, so its builds do not check that updates ' +
        'come from your server. updatesConfig() of @ferry/expo/config sets it; see docs/add-to-an-app.md.\n',
    );
  }

  // Once per platform, before the export and any upload: a project that is not installed fails
  // here, not after minutes of Metro; and the checkout is still as the gate or the bump of this job
  // saw it (the export writes dist/ and .expo/), so their fingerprint can be reused. Both platforms
  // at once: each spends most of its time waiting on the processes @expo/fingerprint starts, so
  // running them together is never slower than one after the other.
  const fingerprints = new Map<Platform, string>(
    await Promise.all(
      request.platforms.map(
        async (platform) => [platform, (await deps.fingerprint(request.projectRoot, platform)).hash] as const,
      ),
    ),
  );

  const distDir = request.distDir ?? (await deps.exporter(request.projectRoot, request.platforms));
  const exports = await readExportedUpdate(distDir, request.platforms);
  const metadata = await readCiMetadata(deps.env, deps.git, request.message);
  // One release group for the releases of every platform of this export: release control can then
  // act on them together (`ferry rollout --group`, `ferry promote --group`).
  const groupId = randomUUID();
  // Each release as the server will check it, but for the URLs it assigns: a release it would
  // refuse (an asset the client could not store, say) fails here, before the first upload.
  const plans = new Map(
    exports.map((exported) => {
      const plan = buildReleasePlan({
        channel: request.channel,
        runtimeVersion: runtimeVersions.get(exported.platform)!,
        exported,
        otaConfig,
        fingerprint: fingerprints.get(exported.platform)!,
        metadata,
        environment,
        rollout: request.rollout,
        groupId,
      });
      checkReleasePlan(plan, exported);
      return [exported.platform, plan] as const;
    }),
  );
  const results: PlatformPublishResult[] = [];
  for (const exported of exports) {
    const { platform } = exported;
    const runtimeVersion = runtimeVersions.get(platform)!;
    const files = uniqueByHash([exported.launchAsset, ...exported.assets]);

    /** Which files the server lacks, their uploads, then the release. */
    const attempt = async () => {
      const check = await client.checkAssets({
        channel: request.channel,
        runtimeVersion,
        assets: files.map((file) => ({ hash: file.hash, contentType: file.contentType, size: file.size })),
      });
      const statuses = new Map(check.assets.map((status) => [status.hash, status]));
      const jobs: UploadJob[] = [];
      const present: ExportedFile[] = [];
      for (const file of files) {
        const status = statuses.get(file.hash);
        if (!status)
          throw new CliError(`The server did not answer for asset ${file.relativePath}; nothing was published.`);
        if (status.status === 'present') present.push(file);
        else if (!status.uploadUrl) throw new CliError(`The server gave no upload URL for ${file.relativePath}.`);
        else jobs.push({ asset: file, uploadUrl: status.uploadUrl, uploadHeaders: status.uploadHeaders ?? {} });
      }

      const missing = sum(jobs.map((job) => job.asset));
      const uploaded =
        jobs.length === 0
          ? { count: 0, bytes: 0 }
          : await uploadAssets(jobs, {
              concurrency: request.concurrency,
              retry: deps.retry,
              fetch: deps.fetch,
              progress: createUploadProgress(deps.out, platform, missing.count, missing.bytes),
            }).catch((error: unknown) => {
              throw uploadFailure(platform, error);
            });

      const payload = withAssetUrls(
        plans.get(platform)!,
        new Map(check.assets.map((status) => [status.hash, status.url])),
      );
      try {
        return { release: await client.publishRelease(payload), uploaded, skipped: sum(present) };
      } catch (error) {
        if (error instanceof FerryHttpError && error.status === 409) throw guardRefusal(platform, error);
        throw error;
      }
    };

    const { release, uploaded, skipped } = await withAssetsAgain(attempt, {
      sleep: deps.sleep ?? sleep,
      say: (collecting) =>
        say(
          `${platform}: ${collecting} asset(s) were deleted by a garbage collection before the release was registered; uploading them again`,
        ),
    });
    say(`${platform}: published release ${release.id} to ${release.channel}/${platform}/${release.runtimeVersion}`);
    if (request.rollout && request.rollout.percent < 100) {
      say(
        `${platform}: rolling out to ${request.rollout.percent}% of devices; widen it with ` +
          `\`ferry rollout ${release.id} --percent <n>\`, or \`--complete\` / \`--revert\``,
      );
    }
    say(
      `${platform}: uploaded ${uploaded.count} asset(s) (${formatBytes(uploaded.bytes)}), ` +
        `skipped ${skipped.count} already stored (${formatBytes(skipped.bytes)})`,
    );
    results.push({ platform, release, uploaded, skipped });
  }
  if (results.length > 1) {
    say(
      `release group ${groupId}: ${results.map((result) => `${result.platform} ${result.release.id}`).join(', ')} ` +
        `(\`ferry rollout --group ${groupId}\`, \`ferry promote --group ${groupId}\` act on both)`,
    );
  }
  return results;
}
