import {
  type Channel,
  type PlannedReleaseAssetInput,
  type ReleasePayloadInput,
  ReleasePlan,
  type ReleasePlanInput,
  type RolloutRequest,
} from '@ferry/contracts';
import { CliError } from '../cli-error.js';
import type { PublicAppConfig } from './app-config.js';
import type { CiMetadata } from './ci-metadata.js';
import type { ExportedFile, ExportedPlatform } from './exported-update.js';
import type { PublishEnvironment } from './publish-environment.js';

export interface ReleaseParts {
  channel: Channel;
  runtimeVersion: string;
  exported: ExportedPlatform;
  otaConfig: PublicAppConfig;
  fingerprint: string;
  metadata: CiMetadata;
  environment: Pick<PublishEnvironment, 'updatePolicy' | 'allowNativeChange'>;
  /** --rollout (and its halt rule); absent publishes to every device. */
  rollout?: RolloutRequest;
  /** The release group: one id for the releases of every platform of one export. */
  groupId: string;
}

const plannedAsset = (file: ExportedFile): PlannedReleaseAssetInput => ({
  hash: file.hash,
  key: file.key,
  contentType: file.contentType,
  ...(file.fileExtension ? { fileExtension: file.fileExtension } : {}),
});

/**
 * The body of POST /api/updates/release for one platform, before the server has assigned the asset
 * URLs. Optional switches are left out when off.
 */
export function buildReleasePlan(parts: ReleaseParts): ReleasePlanInput {
  const { exported, environment } = parts;
  return {
    channel: parts.channel,
    platform: exported.platform,
    runtimeVersion: parts.runtimeVersion,
    launchAsset: plannedAsset(exported.launchAsset),
    assets: exported.assets.map(plannedAsset),
    otaConfig: parts.otaConfig,
    fingerprint: parts.fingerprint,
    metadata: parts.metadata,
    ...(environment.updatePolicy === undefined ? {} : { updatePolicy: environment.updatePolicy }),
    ...(environment.allowNativeChange ? { allowNativeChange: true } : {}),
    ...(parts.rollout ? { rollout: parts.rollout } : {}),
    groupId: parts.groupId,
  };
}

/** The file an issue path (`assets.3.key`) is about, when it is about one. */
function fileOf(path: PropertyKey[], exported: ExportedPlatform): ExportedFile | undefined {
  if (path[0] === 'launchAsset') return exported.launchAsset;
  if (path[0] === 'assets' && typeof path[1] === 'number') return exported.assets[path[1]];
  return undefined;
}

/**
 * Checks a plan with the server's own rules (the contracts' ReleasePlan: everything but the URLs,
 * among them what expo-updates accepts of an asset), so a release the server would refuse fails
 * before anything is uploaded. Throws a CliError naming each field, and the file it is about.
 */
export function checkReleasePlan(plan: ReleasePlanInput, exported: ExportedPlatform): void {
  const checked = ReleasePlan.safeParse(plan);
  if (checked.success) return;
  const lines = checked.error.issues.slice(0, 10).map((issue) => {
    const file = fileOf(issue.path, exported);
    return `  ${issue.path.join('.') || 'release'}${file ? ` (${file.relativePath})` : ''}: ${issue.message}`;
  });
  throw new CliError(
    `${exported.platform}: the server would refuse this release, so nothing was uploaded:\n${lines.join('\n')}`,
  );
}

/** The plan with the URLs the server assigned (hash → URL, from POST /api/updates/assets). */
export function withAssetUrls(plan: ReleasePlanInput, urls: Map<string, string>): ReleasePayloadInput {
  const urlOf = (asset: PlannedReleaseAssetInput) => {
    const url = urls.get(asset.hash);
    if (!url) throw new CliError(`The server gave no URL for asset ${asset.hash}; nothing was published.`);
    return { ...asset, url };
  };
  return { ...plan, launchAsset: urlOf(plan.launchAsset), assets: (plan.assets ?? []).map(urlOf) };
}
