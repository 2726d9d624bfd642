import type { Release } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/config.js';
import type { UpdatesConfig } from '../../config/updates-config.js';
import { createManifestSigner } from '../../signing/create-manifest-signer.js';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import type { Database } from '../../storage/database.js';
import type { ReleaseStore } from '../release-store.js';
import { ManifestCache } from './manifest-cache.js';
import { ManifestService } from './manifest-service.js';
import { PostgresReleaseNotifications } from './postgres-release-notifications.js';

export interface ManifestDelivery {
  service: ManifestService;
  signer: ManifestSigner;
  cache: ManifestCache;
  /** Give to ReleaseService as onPublished: every new release (publish, rollback) passes here. */
  onPublished(release: Release): void;
  /** Starts listening for other instances' releases (PostgreSQL only). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Assembles signer, cache, service and cross-instance invalidation from the configuration. */
export function createManifestDelivery(deps: {
  /** The OTA area's configuration: only built when that area is on. */
  config: { updates: UpdatesConfig; database: Config['database'] };
  database: Database;
  releaseStore: ReleaseStore;
  log: FastifyBaseLogger;
}): ManifestDelivery {
  const signer = createManifestSigner(deps.config.updates, deps.log);
  const cache = new ManifestCache({
    load: (track) => deps.releaseStore.newest(track),
    ttlMs: deps.config.updates.manifestCacheTtlSeconds * 1000,
  });
  const service = new ManifestService({ cache, signer });
  const target = deps.config.database;
  const notifications =
    target.engine === 'postgres'
      ? new PostgresReleaseNotifications({
          url: target.url,
          database: deps.database,
          handlers: { onTrack: (track) => cache.invalidate(track), onReset: () => cache.clear() },
          log: deps.log,
        })
      : undefined;
  return {
    service,
    signer,
    cache,
    onPublished: (release) => {
      const track = { channel: release.channel, platform: release.platform, runtimeVersion: release.runtimeVersion };
      service.releasePublished(track);
      notifications?.announce(track);
    },
    start: async () => notifications?.start(),
    close: async () => notifications?.close(),
  };
}
