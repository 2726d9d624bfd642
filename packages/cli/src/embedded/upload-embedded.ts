import type { EmbeddedBundleResponse, Platform } from '@ferry/contracts';
import { CliError } from '../cli-error.js';
import { type AppConfigEvaluator, runtimeVersionOf } from '../publish/app-config.js';
import { formatBytes } from '../publish/format.js';
import type { Env } from '../publish/publish-environment.js';
import { releaseClient } from '../releases/server-access.js';
import { readBuildProduct } from './build-product.js';
import { type EmbeddedUpdate, readExplicitFiles } from './embedded-update.js';

export interface EmbeddedUploadRequest {
  /** A build product: an iOS .app, .xcarchive or .ipa, or an Android .apk or .aab. */
  build?: string;
  manifest?: string;
  updateId?: string;
  bundle?: string;
  platform?: Platform;
  runtimeVersion?: string;
  /** The app whose config gives the runtimeVersion when nothing else does. */
  projectRoot: string;
  server?: string;
  /** --app; else OTA_APP; else the release token's own app. */
  app?: string;
  json: boolean;
}

export interface EmbeddedUploadDependencies {
  env: Env;
  out: { write(text: string): unknown };
  /** The publisher's app config evaluation; tests pass a fake. */
  evaluateAppConfig: AppConfigEvaluator;
  fetch?: typeof fetch;
}

/** What `--json` prints: the server's answer, and whether this call registered it (201) or found it (200). */
export type EmbeddedUploadResult = EmbeddedBundleResponse & { created: boolean };

/** A build product, or explicit files: never both, and never neither. */
async function readInput(request: EmbeddedUploadRequest): Promise<EmbeddedUpdate & { platform: Platform }> {
  const explicit = request.manifest !== undefined || request.updateId !== undefined || request.bundle !== undefined;
  if (request.build !== undefined && explicit) {
    throw new CliError(
      'Give either a build product or --bundle with --manifest/--update-id, not both: the build product holds its own.',
    );
  }
  if (request.build !== undefined) {
    const update = await readBuildProduct(request.build);
    const platform = update.platform!;
    if (request.platform !== undefined && request.platform !== platform) {
      throw new CliError(`${request.build} is an ${platform} build, but --platform says ${request.platform}.`);
    }
    return { ...update, platform };
  }
  if (request.bundle === undefined) {
    throw new CliError(
      explicit
        ? '--bundle <file> is required with --manifest or --update-id: it is the launch bundle the build embeds.'
        : 'Name a build product (an iOS .app, .xcarchive or .ipa, an Android .apk or .aab), or pass --bundle with --manifest or --update-id.',
    );
  }
  if (request.platform === undefined) {
    throw new CliError('--platform <ios|android> is required with --bundle (a build product names its own).');
  }
  const update = await readExplicitFiles({
    bundle: request.bundle,
    ...(request.manifest === undefined ? {} : { manifest: request.manifest }),
    ...(request.updateId === undefined ? {} : { updateId: request.updateId }),
  });
  return { ...update, platform: request.platform };
}

/**
 * The build's runtimeVersion: the app.manifest's when it carries one (it was written by the build),
 * else --runtime-version, else the app config's, resolved as `ferry publish` resolves it.
 */
async function resolveRuntimeVersion(
  update: EmbeddedUpdate & { platform: Platform },
  request: EmbeddedUploadRequest,
  deps: EmbeddedUploadDependencies,
): Promise<{ runtimeVersion: string; from: string }> {
  if (update.runtimeVersion !== undefined) {
    if (request.runtimeVersion !== undefined && request.runtimeVersion !== update.runtimeVersion) {
      throw new CliError(
        `${update.from.updateId} says runtimeVersion ${update.runtimeVersion}, but --runtime-version says ${request.runtimeVersion}.`,
      );
    }
    return { runtimeVersion: update.runtimeVersion, from: update.from.updateId };
  }
  if (request.runtimeVersion !== undefined)
    return { runtimeVersion: request.runtimeVersion, from: '--runtime-version' };
  try {
    const config = await deps.evaluateAppConfig(request.projectRoot);
    return {
      runtimeVersion: runtimeVersionOf(config, update.platform),
      from: `the app config of ${request.projectRoot}`,
    };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      `${error.message}\n  The build's app.manifest names no runtimeVersion, so it comes from the app config (--project); ` +
        'or name it with --runtime-version.',
    );
  }
}

/** The answer for people: what is registered, from where, and what it set off. */
export function describeUpload(
  result: EmbeddedUploadResult,
  sources: { updateId: string; bundle: string; runtimeVersion: string },
): string {
  const track = `${result.platform} ${result.runtimeVersion}`;
  const patches = !result.created
    ? 'none queued now: this update was registered before (with the same bundle)'
    : result.patchesQueued === 0
      ? `none queued: no release served on ${track} needs one (none yet, or it ships these very bytes); each one published there gets a patch from this bundle`
      : `${result.patchesQueued} queued, from this bundle to the release${result.patchesQueued === 1 ? '' : 's'} now served on ${track}`;
  return [
    `${result.created ? 'Registered' : 'Already registered, nothing changed:'} the embedded update of ${track}`,
    `  runtimeVersion  ${result.runtimeVersion} (from ${sources.runtimeVersion})`,
    `  update id       ${result.updateId} (from ${sources.updateId})`,
    `  bundle          ${formatBytes(result.bytes)}, sha256 ${result.hash} (from ${sources.bundle})`,
    `  patches         ${patches}`,
    '',
  ].join('\n');
}

/**
 * `ferry embedded upload`: registers a native build's embedded update (its id and launch bundle)
 * for its platform and runtimeVersion, so releases on that runtimeVersion get a bundle patch from
 * it. The server and token are checked before anything is read.
 */
export async function uploadEmbedded(
  request: EmbeddedUploadRequest,
  deps: EmbeddedUploadDependencies,
): Promise<EmbeddedUploadResult> {
  const client = releaseClient(deps.env, request, deps.fetch);
  const update = await readInput(request);
  const { runtimeVersion, from } = await resolveRuntimeVersion(update, request, deps);
  const { created, registered } = await client.registerEmbedded(
    { platform: update.platform, runtimeVersion, updateId: update.updateId },
    update.bundle,
  );
  const result = { created, ...registered };
  deps.out.write(
    request.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : describeUpload(result, { updateId: update.from.updateId, bundle: update.from.bundle, runtimeVersion: from }),
  );
  return result;
}
