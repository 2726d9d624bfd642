import type { Channel, ReleaseAsset, ReleasePayloadInput, RolloutRequest } from '@ferry/contracts';
import type { PublicAppConfig } from './app-config.js';
import type { CiMetadata } from './ci-metadata.js';
import type { ExportedFile, ExportedPlatform } from './exported-update.js';
import type { PublishEnvironment } from './publish-environment.js';

export interface ReleaseParts {
  channel: Channel;
  runtimeVersion: string;
  exported: ExportedPlatform;
  /** hash → the URL the server assigned (from POST /api/updates/assets). */
  urls: Map<string, string>;
  otaConfig: PublicAppConfig;
  fingerprint: string;
  metadata: CiMetadata;
  environment: Pick<PublishEnvironment, 'updatePolicy' | 'allowNativeChange'>;
  /** --rollout (and its halt rule); absent publishes to every device. */
  rollout?: RolloutRequest;
}

const releaseAsset = (file: ExportedFile, urls: Map<string, string>): ReleaseAsset => {
  const url = urls.get(file.hash);
  if (!url) throw new Error(`no URL for asset ${file.relativePath}`);
  return {
    hash: file.hash,
    key: file.key,
    contentType: file.contentType,
    ...(file.fileExtension ? { fileExtension: file.fileExtension } : {}),
    url,
  };
};

/** The body of POST /api/updates/release for one platform. Optional switches are left out when off. */
export function buildReleasePayload(parts: ReleaseParts): ReleasePayloadInput {
  const { exported, urls, environment } = parts;
  return {
    channel: parts.channel,
    platform: exported.platform,
    runtimeVersion: parts.runtimeVersion,
    launchAsset: releaseAsset(exported.launchAsset, urls),
    assets: exported.assets.map((asset) => releaseAsset(asset, urls)),
    otaConfig: parts.otaConfig,
    fingerprint: parts.fingerprint,
    metadata: parts.metadata,
    ...(environment.updatePolicy === undefined ? {} : { updatePolicy: environment.updatePolicy }),
    ...(environment.allowNativeChange ? { allowNativeChange: true } : {}),
    ...(parts.rollout ? { rollout: parts.rollout } : {}),
  };
}
