import {
  CERTIFICATE_DOCUMENTS,
  DEFAULT_APP,
  CHANNELS as PROTOCOL_CHANNELS,
  PLATFORMS as PROTOCOL_PLATFORMS,
} from '@ferry/contracts';
import type { Registry } from 'prom-client';
import { BUILT_IN_VENDORS } from '../vendors/built-in-vendors.js';
import type { VendorOperation } from '../vendors/vendor-client.js';
import { appLabel } from './app-label.js';
import { type CounterCell, CounterFamily, type HistogramCell, HistogramFamily } from './cells.js';
import type { BreakerPhase, DatabaseSource } from './prometheus-registry.js';
import { OTHER_RUNTIME_VERSION, runtimeVersionLabel } from './runtime-version-label.js';

export type { BreakerPhase, DatabaseSource, PoolCounts } from './prometheus-registry.js';

/** How a manifest request was answered. */
export type ManifestOutcome = 'update' | 'no-update' | 'directive' | 'rollout-fallback' | 'refused' | 'error';
export type PublishKind = 'publish' | 'rollback' | 'directive' | 'promote';
export type RolloutAction = 'percent' | 'complete' | 'halt' | 'resume' | 'revert';
export type FailureReportKind = 'failed' | 'fatal';
/**
 * How one certificate request ended: `started` (first call, authentication under way), `issued`
 * (second call, a document URL), or why it did not (the error code it answered, in lower case).
 */
export type CertificateFlowOutcome =
  | 'started'
  | 'issued'
  | 'pending'
  | 'expired'
  | 'state-invalid'
  | 'unsupported-provider'
  | 'invalid'
  | 'assignment-refused'
  | 'rejected'
  | 'vendor-error'
  | 'vendor-timeout'
  | 'unavailable'
  | 'error';

export const MANIFEST_OUTCOMES: readonly ManifestOutcome[] = [
  'update',
  'no-update',
  'directive',
  'rollout-fallback',
  'refused',
  'error',
];
/** Label values of devices: what the protocol defines (contracts), everything else counted as `other`. */
export const PLATFORMS = [...PROTOCOL_PLATFORMS, 'other'] as const;
export const CHANNELS = [...PROTOCOL_CHANNELS, 'other'] as const;
export const ASSET_ENCODINGS = ['br', 'gzip', 'identity', 'other'] as const;

/** Manifest answers take tens to hundreds of microseconds when cached, milliseconds on a database read. */
export const MANIFEST_DURATION_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];
/** Vendor exchanges take from tens of milliseconds to the vendor timeout (30 s by default). */
export const VENDOR_DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

const MANIFEST_OUTCOME_INDEX: Readonly<Record<string, number>> = Object.fromEntries(
  MANIFEST_OUTCOMES.map((outcome, index) => [outcome, index]),
);
/** An outcome outside the type (a caller's bug) counts as an error rather than throwing on the hot path. */
const ERROR_OUTCOME_INDEX = MANIFEST_OUTCOMES.indexOf('error');
/** Index of a label value in its list; anything unknown is the last, `other`. */
const indexer = (values: readonly string[]) => {
  const indexes = new Map(values.map((value, index) => [value, index]));
  const other = values.length - 1;
  return (value: string): number => indexes.get(value) ?? other;
};
const platformIndex = indexer(PLATFORMS);
const channelIndex = indexer(CHANNELS);
/** Manifest cells are laid out outcome × platform × channel. */
const TRACK_CELLS = PLATFORMS.length * CHANNELS.length;
/** The label value of a bounded label: itself when known, `other` otherwise. */
const bounded = (known: readonly string[], value: string): string => (known.includes(value) ? value : 'other');

type ManifestCell = CounterCell<'app' | 'outcome' | 'platform' | 'channel'>;
type NoReleaseLabel = 'platform' | 'channel' | 'runtime_version';
type NoReleaseCell = CounterCell<NoReleaseLabel>;

export interface FerryMetricsOptions {
  /** Export the metrics of these areas (FERRY_AREAS); their methods count either way. Default: both. */
  areas?: { ota: boolean; certificates: boolean };
  /**
   * Add prom-client's default process metrics (CPU, memory, event loop, GC) to the exposition.
   * They are collected once per process, whatever the number of FerryMetrics. Default: true.
   */
  processMetrics?: boolean;
  /** The vendors' metrics labels (their definitions'); others count as `other`. Default: the built-in vendors'. */
  vendorLabels?: readonly string[];
}

/**
 * Ferry's Prometheus metrics (docs/metrics.md). Every method is cheap enough for the manifest path:
 * label values are bounded and resolved to a kept series (a cell), and counting adds to a number.
 * prom-client is loaded, and reads the cells, only once an exposition is asked for.
 */
export class FerryMetrics {
  // Manifest: per app (appLabel), cells by outcome × platform × channel, made on the app's first answer.
  private readonly manifestRequests: CounterFamily<'app' | 'outcome' | 'platform' | 'channel'>;
  private readonly manifestCellsByApp = new Map<string, ManifestCell[]>();
  private readonly publishes: CounterFamily<'app' | 'kind'>;
  private readonly manifestDuration: HistogramCell<never>;
  private readonly manifestStale: CounterCell<never>;
  private readonly noRelease: CounterFamily<NoReleaseLabel>;
  /**
   * The no-release cells of each runtime version that has a label of its own, by platform × channel
   * index, made on first use. Only admitted values are keys, so this stays as small as the metric.
   */
  private readonly noReleaseByVersion = new Map<string, Array<NoReleaseCell | undefined>>();
  /** The `other` cells, by the same index: what a request with an unlabelled value counts into. */
  private readonly noReleaseOther: Array<NoReleaseCell | undefined> = [];
  private noReleaseSeries = 0;
  private readonly assetBytes: Array<CounterCell<'encoding'>>;
  private readonly bundleDownloads: CounterFamily<'answer'>;
  private readonly bundleBytes: CounterFamily<'answer'>;
  private readonly bundleBytesSaved: CounterCell<never>;
  private readonly patchesMade: CounterFamily<'state'>;
  private readonly guardBlocks: CounterCell<never>;
  private readonly guardBypasses: CounterCell<never>;
  private readonly rolloutChanges: CounterFamily<'action'>;
  private readonly rolloutHalts: CounterCell<never>;
  private readonly failureReports: CounterFamily<'kind'>;
  private readonly certificateFlows: CounterFamily<'document' | 'vendor' | 'outcome'>;
  private readonly vendorDurations: HistogramFamily<'vendor' | 'operation'>;
  private readonly counters: Array<CounterFamily<string>> = [];
  private readonly histograms: Array<HistogramFamily<string>> = [];
  private readonly processMetrics: boolean;
  private readonly vendorLabels: readonly string[];
  private database: DatabaseSource | undefined;
  private breakerPhase: () => BreakerPhase | undefined = () => undefined;
  private registry: Promise<Registry> | undefined;

  constructor(options: FerryMetricsOptions = {}) {
    const areas = options.areas ?? { ota: true, certificates: true };
    this.processMetrics = options.processMetrics ?? true;
    this.vendorLabels = options.vendorLabels ?? BUILT_IN_VENDORS.metricsLabels;
    // Metrics of an area that is off are counted into nothing anyone reads, never exported.
    const counter = <L extends string>(name: string, help: string, labels: readonly L[], exported = true) => {
      const family = new CounterFamily<L>(name, help, labels, exported);
      this.counters.push(family as CounterFamily<string>);
      return family;
    };
    const histogram = <L extends string>(
      name: string,
      help: string,
      labels: readonly L[],
      buckets: readonly number[],
      exported: boolean,
    ) => {
      const family = new HistogramFamily<L>(name, help, labels, buckets, exported);
      this.histograms.push(family as HistogramFamily<string>);
      return family;
    };

    this.manifestRequests = counter(
      'ferry_manifest_requests_total',
      'Manifest requests answered, by app, outcome, platform and channel (unknown platforms and channels count as other; apps past the 200th as other).',
      ['app', 'outcome', 'platform', 'channel'] as const,
      areas.ota,
    );
    this.manifestCellsOf(DEFAULT_APP);
    this.manifestDuration = histogram<never>(
      'ferry_manifest_duration_seconds',
      'Time from a manifest request to its answer, in seconds.',
      [],
      MANIFEST_DURATION_BUCKETS,
      areas.ota,
    ).cell({});

    this.manifestStale = counter<never>(
      'ferry_manifest_stale_answers_total',
      'Manifest answers served from a cached track past its TTL because reloading it failed (stale-if-error).',
      [],
      areas.ota,
    ).cell({});

    this.noRelease = counter(
      'ferry_manifest_no_release_total',
      'Manifest requests answered "no update" because their track has no release, by platform, channel and runtime version (at most 100 series; the rest count as runtime_version="other").',
      ['platform', 'channel', 'runtime_version'] as const,
      areas.ota,
    );

    const assetBytes = counter(
      'ferry_asset_bytes_served_total',
      'Bytes of update assets handed to responses, by content encoding.',
      ['encoding'] as const,
    );
    this.assetBytes = ASSET_ENCODINGS.map((encoding) => assetBytes.cell({ encoding }));

    this.bundleDownloads = counter(
      'ferry_bundle_downloads_total',
      'Launch-bundle downloads by devices that can apply a patch (A-IM: bsdiff), by answer: patch (226) or full (200).',
      ['answer'] as const,
      areas.ota,
    );
    this.bundleBytes = counter(
      'ferry_bundle_download_bytes_total',
      'Bytes of those answers as sent (a full one in its negotiated encoding), by answer: patch or full.',
      ['answer'] as const,
      areas.ota,
    );
    for (const answer of ['patch', 'full'] as const) {
      this.bundleDownloads.cell({ answer });
      this.bundleBytes.cell({ answer });
    }
    this.bundleBytesSaved = counter<never>(
      'ferry_bundle_patch_bytes_saved_total',
      'Bytes patch answers saved against the brotli full bundle they replaced.',
      [],
      areas.ota,
    ).cell({});
    this.patchesMade = counter(
      'ferry_bundle_patches_made_total',
      'Bundle patches this instance made, by what became of them: ready (offered), larger (not offered), failed.',
      ['state'] as const,
      areas.ota,
    );
    for (const state of ['ready', 'larger', 'failed'] as const) this.patchesMade.cell({ state });

    this.publishes = counter(
      'ferry_releases_published_total',
      'Releases made live, by app and kind: publishes, rollbacks, directives and promotions.',
      ['app', 'kind'] as const,
      areas.ota,
    );
    for (const kind of ['publish', 'rollback', 'directive', 'promote'] as const)
      this.publishes.cell({ app: DEFAULT_APP, kind });
    this.guardBlocks = counter<never>(
      'ferry_guard_blocked_total',
      'Publishes the native-change guard refused (409).',
      [],
      areas.ota,
    ).cell({});
    this.guardBypasses = counter<never>(
      'ferry_guard_bypassed_total',
      'Publishes on a guarded track with allowNativeChange (audited bypasses).',
      [],
      areas.ota,
    ).cell({});
    this.rolloutChanges = counter(
      'ferry_rollout_changes_total',
      'Changes of staged rollouts by action: percent, complete, halt, resume, revert.',
      ['action'] as const,
      areas.ota,
    );
    for (const action of ['percent', 'complete', 'halt', 'resume', 'revert'] as const)
      this.rolloutChanges.cell({ action });
    this.rolloutHalts = counter<never>(
      'ferry_rollout_halts_total',
      'Rollouts halted by their failure-rate rule.',
      [],
      areas.ota,
    ).cell({});
    this.failureReports = counter(
      'ferry_failure_reports_total',
      'Update failures reported by devices: failed (Expo-Recent-Failed-Update-IDs) or fatal (Expo-Fatal-Error).',
      ['kind'] as const,
      areas.ota,
    );
    for (const kind of ['failed', 'fatal'] as const) this.failureReports.cell({ kind });

    this.certificateFlows = counter(
      'ferry_certificate_flows_total',
      'Certificate requests by document, vendor and outcome (started, issued, or the error they answered).',
      ['document', 'vendor', 'outcome'] as const,
      areas.certificates,
    );
    this.vendorDurations = histogram(
      'ferry_vendor_request_duration_seconds',
      'Duration of HTTP exchanges with certificate vendors, by vendor and operation, in seconds.',
      ['vendor', 'operation'] as const,
      VENDOR_DURATION_BUCKETS,
      areas.certificates,
    );
  }

  /** Apps with a label of their own (appLabel), and the label of each app counted so far. */
  private readonly appLabels = new Map<string, string>();
  private labelledApps = 0;

  /** An app's label; only apps with a label of their own are remembered, so the map stays bounded. */
  private labelOf(app: string): string {
    const known = this.appLabels.get(app);
    if (known !== undefined) return known;
    const label = appLabel(app, this.labelledApps);
    if (label === app) {
      this.appLabels.set(app, label);
      if (app !== DEFAULT_APP) this.labelledApps++;
    }
    return label;
  }

  /** The manifest cells of an app's label, made on first use. */
  private manifestCellsOf(app: string): ManifestCell[] {
    const label = this.labelOf(app);
    let cells = this.manifestCellsByApp.get(label);
    if (cells === undefined) {
      cells = [];
      for (const outcome of MANIFEST_OUTCOMES)
        for (const platform of PLATFORMS)
          for (const channel of CHANNELS)
            cells.push(this.manifestRequests.cell({ app: label, outcome, platform, channel }));
      this.manifestCellsByApp.set(label, cells);
    }
    return cells;
  }

  /** One manifest answer: its app, outcome, the device's platform and channel, and how long it took. */
  manifestAnswered(
    outcome: ManifestOutcome,
    platform: string,
    channel: string,
    seconds: number,
    app: string = DEFAULT_APP,
  ): void {
    const outcomeIndex = MANIFEST_OUTCOME_INDEX[outcome] ?? ERROR_OUTCOME_INDEX;
    const cells = this.manifestCellsByApp.get(app) ?? this.manifestCellsOf(app);
    const cell = cells[outcomeIndex * TRACK_CELLS + platformIndex(platform) * CHANNELS.length + channelIndex(channel)];
    (cell as ManifestCell).value++;
    this.manifestDuration.observe(seconds);
  }

  /**
   * One manifest answer for a track without any release (the 204 that leaves "my update never
   * arrives" unexplained). Runtime versions are labelled by runtimeVersionLabel; a label already
   * made is a map lookup and an index, so a fleet on a new, unpublished build costs little.
   */
  manifestNoRelease(platform: string, channel: string, runtimeVersion: string): void {
    const index = platformIndex(platform) * CHANNELS.length + channelIndex(channel);
    const cell = this.noReleaseByVersion.get(runtimeVersion)?.[index] ?? this.noReleaseCell(runtimeVersion, index);
    cell.value++;
  }

  private noReleaseCell(runtimeVersion: string, index: number): NoReleaseCell {
    const label = runtimeVersionLabel(runtimeVersion, this.noReleaseSeries);
    const labels = {
      platform: PLATFORMS[Math.floor(index / CHANNELS.length)]!,
      channel: CHANNELS[index % CHANNELS.length]!,
    };
    if (label === OTHER_RUNTIME_VERSION) {
      this.noReleaseOther[index] ??= this.noRelease.cell({ ...labels, runtime_version: OTHER_RUNTIME_VERSION });
      return this.noReleaseOther[index];
    }
    const cell = this.noRelease.cell({ ...labels, runtime_version: label });
    let cells = this.noReleaseByVersion.get(runtimeVersion);
    if (!cells) {
      cells = new Array(TRACK_CELLS).fill(undefined);
      this.noReleaseByVersion.set(runtimeVersion, cells);
    }
    cells[index] = cell;
    this.noReleaseSeries++;
    return cell;
  }

  /** One manifest answer from a cached track whose reload failed (MANIFEST_STALE_IF_ERROR_SECONDS). */
  manifestServedStale(): void {
    this.manifestStale.value++;
  }

  /** Back to no manifest answers: what an instance's start-up warm-up counted was no device's (manifest-warm-up.ts). */
  forgetManifestAnswers(): void {
    for (const cell of this.manifestRequests.cells()) cell.value = 0;
    for (const cell of this.noRelease.cells()) cell.value = 0;
    this.manifestDuration.reset();
  }

  /** Bytes of an update asset handed to a response, in the encoding it was sent in. */
  assetBytesServed(bytes: number, encoding: string): void {
    const index = encoding === 'br' ? 0 : encoding === 'gzip' ? 1 : encoding === 'identity' ? 2 : 3;
    (this.assetBytes[index] as CounterCell<'encoding'>).value += bytes;
  }

  /** A launch-bundle download of a device that asked for a patch: what it got, and what a patch saved. */
  bundleDownloaded(answer: 'patch' | 'full', bytes: number, savedBytes = 0): void {
    this.bundleDownloads.cell({ answer }).value++;
    this.bundleBytes.cell({ answer }).value += bytes;
    this.bundleBytesSaved.value += savedBytes;
  }

  patchMade(state: 'ready' | 'larger' | 'failed'): void {
    this.patchesMade.cell({ state }).value++;
  }

  published(kind: PublishKind, app: string = DEFAULT_APP): void {
    this.publishes.cell({ app: this.labelOf(app), kind }).value++;
  }

  guardBlocked(): void {
    this.guardBlocks.value++;
  }

  guardBypassed(): void {
    this.guardBypasses.value++;
  }

  rolloutChanged(action: RolloutAction): void {
    this.rolloutChanges.cell({ action }).value++;
  }

  rolloutHalted(): void {
    this.rolloutHalts.value++;
  }

  failureReported(kind: FailureReportKind): void {
    this.failureReports.cell({ kind }).value++;
  }

  /**
   * One certificate request's end: document, vendor (its metrics label) and outcome (unknown
   * documents and vendors count as other).
   */
  certificateFlow(document: string, vendor: string, outcome: CertificateFlowOutcome): void {
    this.certificateFlows.cell({
      document: bounded(CERTIFICATE_DOCUMENTS, document),
      vendor: bounded(this.vendorLabels, vendor),
      outcome,
    }).value++;
  }

  /** One HTTP exchange with a vendor (its metrics label), however it ended (a timeout counts with its duration). */
  vendorRequest(vendor: string, operation: VendorOperation, seconds: number): void {
    this.vendorDurations.cell({ vendor: bounded(this.vendorLabels, vendor), operation }).observe(seconds);
  }

  /** Where the database gauges read from on each scrape (the pools' own counters). */
  observeDatabase(source: DatabaseSource): void {
    this.database = source;
  }

  /** Where the rate-limit Redis breaker's gauge reads from on each scrape. */
  observeRateLimitBreaker(phase: () => BreakerPhase | undefined): void {
    this.breakerPhase = phase;
  }

  /**
   * Loads prom-client and builds the registry that reads the cells (once; later calls share it).
   * An instance that serves /metrics calls it at start-up, so process metrics count from then.
   */
  prepareExposition(): Promise<Registry> {
    this.registry ??= import('./prometheus-registry.js').then(({ buildRegistry }) =>
      buildRegistry({
        counters: this.counters,
        histograms: this.histograms,
        database: () => this.database,
        rateLimitBreaker: () => this.breakerPhase(),
        processMetrics: this.processMetrics,
      }),
    );
    return this.registry;
  }

  /** The exposition text and its content type, for /metrics. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const registry = await this.prepareExposition();
    return { contentType: registry.contentType, text: await registry.metrics() };
  }
}
