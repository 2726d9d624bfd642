import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../apps/app-registry.js';
import { requireOperatorAction } from '../auth/operator-access.js';
import type { Config } from '../config/config.js';
import type { UpdatesConfig } from '../config/updates-config.js';
import { bearerTokenOf } from '../http/bearer-token.js';
import { logsRequestLines } from '../http/logger.js';
import { appsRoutes } from '../routes/api/apps.js';
import { auditEventsRoute } from '../routes/api/audit-events.js';
import { consoleApiRoutes } from '../routes/api/console/console-api.js';
import { assetsRoute } from '../routes/api/updates/assets.js';
import { baselineFingerprintRoute } from '../routes/api/updates/baseline-fingerprint.js';
import { codeSigningRoute } from '../routes/api/updates/code-signing.js';
import { directivesRoute } from '../routes/api/updates/directives.js';
import { embeddedRoutes } from '../routes/api/updates/embedded.js';
import { assetGcRoute } from '../routes/api/updates/gc.js';
import { manifestRoute } from '../routes/api/updates/manifest.js';
import { manifestFastPath } from '../routes/api/updates/manifest-fast-path.js';
import { promoteRoute } from '../routes/api/updates/promote.js';
import { releaseRoute } from '../routes/api/updates/release.js';
import { releasesRoute } from '../routes/api/updates/releases.js';
import { rollbackRoute } from '../routes/api/updates/rollback.js';
import { rolloutsRoute } from '../routes/api/updates/rollouts.js';
import { consoleAppRoutes, DEFAULT_CONSOLE_ROOT } from '../routes/console-app.js';
import type { ServableWithoutDatabase, StartupWork } from '../routes/readiness.js';
import { createManifestSigner } from '../signing/create-manifest-signer.js';
import { type Track, trackOf } from './app-track.js';
import { AssetUploadService } from './assets/asset-upload-service.js';
import { AssetUrls } from './assets/asset-urls.js';
import { ReleaseAssetCheck } from './assets/release-assets.js';
import { AuditExport } from './audit-export.js';
import { ConsoleReads } from './console/console-reads.js';
import { CONSOLE_HEARTBEAT_MS, CONSOLE_MAX_STREAMS, ConsoleEventStreams } from './console/event-stream.js';
import { guardBlockAudit } from './console/guard-block-audit.js';
import { TrackEvents } from './console/track-events.js';
import { AssetCollector } from './gc/asset-collector.js';
import { AssetDeletions, THIS_PROCESS } from './gc/asset-deletions.js';
import { AssetVerifier } from './gc/asset-verifier.js';
import { KyselyGcStore } from './gc/kysely-gc-store.js';
import { KyselyReleaseStore } from './kysely-release-store.js';
import { MANIFEST_CACHE_MAX_TRACKS } from './manifest/manifest-cache.js';
import { type AppSignerSource, defaultAppSigner, ManifestService } from './manifest/manifest-service.js';
import { type WarmedTrack, warmUpManifestPath } from './manifest/manifest-warm-up.js';
import { PostgresReleaseNotifications } from './manifest/postgres-release-notifications.js';
import { KyselyEmbeddedBundles } from './patches/kysely-embedded-bundles.js';
import { KyselyPatchStore } from './patches/kysely-patch-store.js';
import { PATCH_LEASE_MS, PATCH_POLL_MS, PatchMaker } from './patches/patch-maker.js';
import { PatchOffers } from './patches/patch-offers.js';
import { ReleaseListing } from './release-listing.js';
import { ReleaseService } from './release-service.js';
import { DeviceReports } from './reports/device-reports.js';
import { KyselyReportStore } from './reports/kysely-report-store.js';
import { RolloutService } from './rollout/rollout-service.js';

export interface OtaPluginOptions {
  updates: UpdatesConfig;
  releaseToken: string;
  limits: Config['limits'];
  objects: Pick<Config['objects'], 'assetPublicBaseUrl' | 'uploadLimitBytes'>;
  /** Base of this server's own /objects URLs (PUBLIC_URL/objects). */
  objectsBaseUrl: () => string;
  /** Readiness counts the manifests this area can still serve while the database is down. */
  servableWithoutDatabase?: ServableWithoutDatabase;
  /** Where the area puts what it does once the instance listens (loading and warming the cache). */
  startupWork?: StartupWork;
  now?: () => Date;
  /** The built release console served at /console/; defaults to the one shipped with the server. */
  consoleRoot?: string;
  /** The apps (apps/app-registry.ts): their signers and the admin routes; without it, the default app only. */
  apps?: AppRegistry;
}

/** The key a release-endpoint rate limit counts by: the token (hashed, never stored), else the address. */
const releaseRateKey = (request: FastifyRequest): string => {
  const token = bearerTokenOf(request);
  return token ? `token:${createHash('sha256').update(token).digest('base64url')}` : `ip:${request.ip}`;
};

/**
 * The OTA area, wired in one place: the release registry with its guard, manifest signing, the
 * manifest cache and its cross-instance invalidation (PostgreSQL LISTEN), asset uploads, and the
 * routes under /api/updates. Reads the database and the object store the plugins before it provide.
 */
export const otaPlugin: FastifyPluginAsync<OtaPluginOptions> = async (app, options) => {
  const { database, objectStore } = app;
  const store = new KyselyReleaseStore(database, options.now, options.updates.patchBases);

  const signer = createManifestSigner(options.updates, app.log);
  options.apps?.setDefaultSigner(signer);
  const signers: AppSignerSource = options.apps ?? defaultAppSigner(signer);
  const urls = new AssetUrls(() => options.objects.assetPublicBaseUrl ?? options.objectsBaseUrl());
  const manifests = new ManifestService({
    store,
    signers,
    urls,
    log: app.log,
    ttlMs: options.updates.manifestCacheTtlSeconds * 1000,
    staleMs: options.updates.manifestStaleIfErrorSeconds * 1000,
    maxBytes: options.updates.manifestCacheMaxMb * 2 ** 20,
    metrics: app.metrics,
  });
  // A key rotated outside this instance (ferry-server apps rotate-key) is found when a track of its
  // app loads past the row's TTL: every track of that app is signed again.
  if (options.apps) options.apps.onKeyChanged = (changed) => manifests.appChanged(changed);
  options.servableWithoutDatabase?.add(() => manifests.servableTracks());
  // Other instances' releases reach this one's cache through LISTEN/NOTIFY (PostgreSQL only; an
  // SQLite database has one instance).
  // The console's live updates hear the same changes (console/track-events.ts).
  const trackEvents = new TrackEvents();
  const notifications = database.url
    ? new PostgresReleaseNotifications({
        url: database.url,
        database,
        handlers: {
          onTrack: (track) => {
            manifests.trackChanged(track);
            trackEvents.emit({ type: 'track', ...track, origin: 'remote' });
          },
          onApp: (changed) => {
            options.apps?.forget(changed);
            manifests.appChanged(changed);
          },
          onReset: () => {
            manifests.reset();
            trackEvents.emit({ type: 'reset' });
          },
        },
        log: app.log,
      })
    : undefined;
  await notifications?.start();
  app.addHook('onClose', async () => notifications?.close());
  // Once listening, before the instance reports ready: traffic a load balancer sends meets a warm
  // cache, and a manifest path V8 has already optimised (manifest-warm-up.ts). Not before
  // listening: that would run inside a hook Fastify kills after a fixed time (routes/readiness.ts).
  let warmed: WarmedTrack[] = [];
  options.startupWork?.add(async () => {
    const started = performance.now();
    try {
      warmed = await manifests.warm(MANIFEST_CACHE_MAX_TRACKS);
      app.log.info({ tracks: warmed.length, ms: Math.round(performance.now() - started) }, 'manifest cache loaded');
    } catch (err) {
      app.log.warn({ err }, 'could not load the manifest cache at start-up; tracks load on first request');
    }
  });
  options.startupWork?.add(async () => {
    // With request lines logged (debug), the fast path steps aside and every warm-up request would be a log line.
    const listener = app.fastPaths.listener;
    if (!listener || logsRequestLines(app.log)) return;
    try {
      const result = await warmUpManifestPath(listener, warmed, options.updates.manifestWarmUpRequests);
      if (result.sent > 0) app.log.info(result, 'manifest path warmed up');
    } catch (err) {
      app.log.warn({ err }, 'could not warm up the manifest path; the first requests run it cold');
    } finally {
      // The warm-up's answers are not devices' (it ends before the instance reports ready).
      app.metrics.forgetManifestAnswers();
    }
  });
  // Tracks nobody asks for stay warm: reloaded in the background past their TTL.
  manifests.startRefreshing();
  app.addHook('onClose', async () => manifests.stopRefreshing());

  // Bundle patches (ota/patches): made off the request path after each publish, by one instance
  // each, and offered to devices that ask for them on any instance.
  const patchStore = new KyselyPatchStore(database);
  const patchMaker = new PatchMaker({
    store: patchStore,
    objects: objectStore,
    encodings: app.assetEncodings,
    log: app.log,
    holder: THIS_PROCESS,
    leaseMs: PATCH_LEASE_MS,
    maxRatio: options.updates.patchMaxRatio,
    pollMs: PATCH_POLL_MS,
    made: (state) => app.metrics.patchMade(state),
  });
  app.assetDelivery.offerPatchesFrom(new PatchOffers(patchStore, objectStore, app.log));
  // Work queued before this instance started (a crash, another instance's publish) is resumed.
  options.startupWork?.add(async () => patchMaker.start());
  app.addHook('onClose', async () => patchMaker.stop());

  const gcStore = new KyselyGcStore(database);
  const deletions = new AssetDeletions(database, { now: options.now && (() => options.now!().getTime()) });
  const uploads = new AssetUploadService({
    store: objectStore,
    urls,
    uploadLimitBytes: options.objects.uploadLimitBytes,
    deletions,
  });
  const releases = new ReleaseService({
    store,
    log: app.log,
    now: options.now,
    assets: new ReleaseAssetCheck({
      store: objectStore,
      urls,
      deletions,
      encodings: app.assetEncodings,
      delivery: app.assetDelivery,
      log: app.log,
    }),
    sign: (release) => manifests.sign(release),
    onPublished: (release, signatures) => {
      patchMaker.wake();
      manifests.releasePublished(release, signatures);
      notifications?.announce(trackOf(release));
      trackEvents.emit({ type: 'track', ...trackOf(release), origin: 'local' });
    },
    onGuardBlocked: guardBlockAudit(database, app.log, options.now),
    onTrackChanged: (track) => trackChanged(track),
    metrics: app.metrics,
  });
  // A rollout, a directive, a halt: this instance reads the track again, and so do the others.
  const trackChanged = (track: Track) => {
    patchMaker.wake();
    manifests.trackChanged(track);
    notifications?.announce(track);
    trackEvents.emit({ type: 'track', ...track, origin: 'local' });
  };
  const reportStore = new KyselyReportStore(database);
  const rollouts = new RolloutService({
    store,
    signer: {
      release: (release) => manifests.sign(release),
      rollBackToEmbedded: (app, createdAt) => manifests.signRollBackToEmbedded(app, createdAt),
    },
    health: (releaseId) => reportStore.health(releaseId),
    onTrackChanged: trackChanged,
    onRolloutEvent: (event, ofApp) => {
      if (event === 'rule-halt') app.metrics.rolloutHalted();
      else if (event === 'directive') app.metrics.published('directive', ofApp);
      else app.metrics.rolloutChanged(event);
    },
    log: app.log,
    now: options.now,
  });
  const reports = new DeviceReports({
    store: reportStore,
    rollouts: {
      haltable: (ids) => store.haltableRollouts(ids),
      halt: (id, reason, details) => rollouts.halt(id, reason, details),
    },
    onFailureReported: (kind) => app.metrics.failureReported(kind),
    log: app.log,
  });
  reports.start();
  // After the server stopped answering: what devices reported last is still written.
  app.addHook('onClose', async () => reports.stop());

  // Who may call each route is decided per action (auth/operator-roles.ts), in the routes.
  const admin = {
    service: releases,
    perMinute: options.limits.releasePerMinute,
    rateKey: releaseRateKey,
  };
  releaseRoute(app, { ...admin, bodyLimit: options.limits.releaseBodyBytes });
  baselineFingerprintRoute(app, { service: releases, perMinute: options.limits.baselinePerMinute });
  codeSigningRoute(app, { signers, perMinute: options.limits.baselinePerMinute });
  if (options.apps) {
    const registry = options.apps;
    appsRoutes(app, {
      registry,
      perMinute: options.limits.releasePerMinute,
      onAppChanged: (slug) => {
        registry.forget(slug);
        manifests.appChanged(slug);
        notifications?.announceApp(slug);
      },
    });
  }
  manifestRoute(app, { service: manifests, reports, metrics: app.metrics });
  // Request lines are logged at debug (http-plugin.ts): then every request goes through Fastify.
  const logsRequests = () => logsRequestLines(app.log);
  app.fastPaths.add(manifestFastPath(manifests, { logsRequests, reports, metrics: app.metrics }));
  assetsRoute(app, { ...admin, service: uploads });
  releasesRoute(app, {
    ...admin,
    listing: new ReleaseListing(
      database,
      (ids) => reportStore.adoption(ids, Date.now()),
      (hashes) => patchStore.patchesTo(hashes),
    ),
  });
  await app.register(embeddedRoutes, {
    ...admin,
    embedded: new KyselyEmbeddedBundles(database),
    objects: objectStore,
    bodyLimit: options.objects.uploadLimitBytes,
    onQueued: () => patchMaker.wake(),
  });
  auditEventsRoute(app, { ...admin, audit: new AuditExport(database) });
  rollbackRoute(app, admin);
  promoteRoute(app, admin);
  assetGcRoute(app, {
    ...admin,
    verifier: new AssetVerifier({ store: gcStore, objects: objectStore, log: app.log }),
    collector: new AssetCollector({
      store: gcStore,
      deletions,
      objects: objectStore,
      graceSeconds: options.updates.assetGcGraceSeconds,
      log: app.log,
      now: options.now,
      patches: patchStore,
    }),
  });
  rolloutsRoute(app, { ...admin, rollouts });
  directivesRoute(app, { ...admin, rollouts });

  // The release console (issue 19): its read API, live events, and the app at /console/.
  const streams = new ConsoleEventStreams({
    events: trackEvents,
    maxConnections: CONSOLE_MAX_STREAMS,
    heartbeatMs: CONSOLE_HEARTBEAT_MS,
  });
  app.addHook('preClose', async () => streams.closeAll());
  const consoleReads = new ConsoleReads({
    database,
    store,
    reports: reportStore,
    objects: objectStore,
    urls,
    signers,
    patches: patchStore,
    patchMaxRatio: options.updates.patchMaxRatio,
  });
  trackEvents.subscribe((event) => consoleReads.forgetTracks(event.type === 'track' ? event.app : undefined));
  consoleApiRoutes(app, {
    reads: consoleReads,
    streams,
    requireViewer: requireOperatorAction('read'),
    perMinute: options.limits.releasePerMinute,
  });
  await consoleAppRoutes(app, { root: options.consoleRoot ?? DEFAULT_CONSOLE_ROOT });
};
