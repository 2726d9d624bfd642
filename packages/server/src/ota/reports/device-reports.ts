import { createHash } from 'node:crypto';
import { DEFAULT_APP, type ManifestRequest, shouldHalt } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { parseList } from 'structured-headers';
import type { PickedHeaders } from '../manifest/manifest-headers.js';
import { clientIdOf } from '../manifest/manifest-request.js';
import type { Rollout } from '../release-store.js';
import { haltReason } from './halt-rule.js';
import type { CheckReport, FailureReport, ReportStore } from './report-store.js';
import { runningUpdateOf } from './running-update.js';

/** How often reports gathered in memory are written; a halt fires within about this long. */
export const REPORT_FLUSH_MS = 1000;
/** Reports held between writes; past it they are written at once, past 4 × it new ones are dropped. */
const MAX_PENDING = 10_000;
/** A device seen running an update is written again at most this often (adoption counts days). */
const RECHECK_MS = 60 * 60 * 1000;
/** Update and device pairs remembered as written; past it the memory starts over. */
const MAX_WRITTEN = 100_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** expo-updates lists only recent failures; a longer header is not one it sent. */
const MAX_FAILED_IDS = 20;

interface PendingCheck {
  /** The app whose updates URL the device asked: only a release of that app is counted. */
  app: string;
  updateId: string;
  clientId: string;
  seenAt: number;
}
interface PendingFailure extends PendingCheck {
  kind: 'failed' | 'fatal';
}

/** The update ids of `Expo-Recent-Failed-Update-IDs` (an RFC 8941 list of strings), lowercased; [] when malformed. */
export function failedUpdateIds(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  try {
    const ids = parseList(Array.isArray(header) ? header.join(', ') : header)
      .map(([value]) => value)
      .filter((value): value is string => typeof value === 'string' && UUID.test(value))
      .map((value) => value.toLowerCase());
    return [...new Set(ids)].slice(0, MAX_FAILED_IDS);
  } catch {
    return [];
  }
}

/** Only the hash of a client id is kept: it counts devices without naming them. */
export const deviceOf = (clientId: string) => createHash('sha256').update(clientId).digest('base64url');

export interface DeviceReportsDeps {
  store: ReportStore;
  /** Running rollouts with a halt rule among these releases, and how to halt one. */
  rollouts: {
    haltable(releaseIds: string[]): Promise<Rollout[]>;
    halt(releaseId: string, reason: string, details: Record<string, unknown>): Promise<boolean>;
  };
  onFailureReported?: (kind: 'failed' | 'fatal') => void;
  log: FastifyBaseLogger;
  now?: () => number;
}

/**
 * What devices say on their update checks (issue 18): the update they run (`expo-current-update-id`
 * with `EAS-Client-ID`), the updates that failed on them (`Expo-Recent-Failed-Update-IDs`) and a
 * crash of the update they run (`Expo-Fatal-Error`). The manifest path only notes them in memory;
 * they are written to the database once a second, de-duplicated per update and device, and then
 * every rollout they touch is checked against its halt rule. Every instance writes to the same
 * tables, so the counts, and the halt, are the fleet's.
 */
export class DeviceReports {
  private checks = new Map<string, PendingCheck>();
  private failures = new Map<string, PendingFailure>();
  /**
   * When each device was last written, by update: a device that checks every launch is written once
   * an hour, not each time. Plain Maps emptied when full (cheaper per check than an LRU on the
   * manifest path); emptying them only costs a write per device again. Two levels, so a check
   * looks up the update's string (the same one for every device of a track) and the client id, and
   * builds no joined key: a check runs on every manifest request of a reporting device, where a key
   * string built per request would be most of its cost.
   */
  private written = new Map<string, Map<string, number>>();
  private writtenCount = 0;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private droppedWarned = false;
  /** A write asked for because the pending reports reached MAX_PENDING, not yet started. */
  private early = false;

  constructor(private readonly deps: DeviceReportsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Notes what a manifest request reports: the release the device runs (runningUpdateOf of its
   * update ids) and what failed on it. The hot path: no I/O, no hashing, no key string built for a
   * device already written, nothing without a client id (the caller may pass the one it read).
   */
  observe(
    headers: PickedHeaders,
    ids: Pick<ManifestRequest, 'currentUpdateId' | 'embeddedUpdateId'>,
    clientId = clientIdOf(headers),
    app: string = DEFAULT_APP,
  ): void {
    if (clientId === undefined) return;
    const running = runningUpdateOf(ids);
    if (running !== undefined) {
      const writtenAt = this.written.get(running)?.get(clientId);
      if (writtenAt === undefined || this.now() - writtenAt >= RECHECK_MS) {
        const key = `${running} ${clientId}`;
        if (!this.checks.has(key) && this.room())
          this.checks.set(key, { app, updateId: running, clientId, seenAt: this.now() });
      }
    }
    const failed = headers.get('expo-recent-failed-update-ids');
    if (failed !== undefined) {
      for (const updateId of failedUpdateIds(failed)) this.fail(app, updateId, clientId, 'failed');
    }
    // Sent once, on the first check after a crash, while the crashed update is still the one it runs.
    if (headers.has('expo-fatal-error') && running !== undefined) this.fail(app, running, clientId, 'fatal');
  }

  private fail(app: string, updateId: string, clientId: string, kind: 'failed' | 'fatal'): void {
    const key = `${updateId} ${clientId}`;
    if (!this.failures.has(key) && this.room())
      this.failures.set(key, { app, updateId, clientId, kind, seenAt: this.now() });
  }

  private room(): boolean {
    const pending = this.checks.size + this.failures.size;
    if (pending >= MAX_PENDING && !this.early) {
      this.early = true;
      void this.flush().finally(() => {
        this.early = false;
      });
    }
    if (pending < 4 * MAX_PENDING) return true;
    if (!this.droppedWarned) {
      this.droppedWarned = true;
      this.deps.log.warn({ pending }, 'device reports arrive faster than they are written; some are dropped');
    }
    return false;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), REPORT_FLUSH_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes pending reports, then checks the rollouts they touch. One write at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((err) => {
        this.deps.log.warn({ err }, 'could not write device reports; they are dropped');
      });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.checks.size === 0 && this.failures.size === 0) return;
    const checks = [...this.checks.values()];
    const failures = [...this.failures.values()];
    this.checks = new Map();
    this.failures = new Map();
    this.droppedWarned = false;
    const ids = [...new Set([...checks, ...failures].map((report) => report.updateId))];
    // A release of the app the device asked: a device of one app never counts toward another's release.
    const known = await this.deps.store.knownReleases(ids);
    const ofItsApp = (report: PendingCheck) => known.get(report.updateId) === report.app;
    const checkRows: CheckReport[] = checks
      .filter(ofItsApp)
      .map((check) => ({ updateId: check.updateId, device: deviceOf(check.clientId), seenAt: check.seenAt }));
    const failureRows: FailureReport[] = failures.filter(ofItsApp).map((failure) => ({
      updateId: failure.updateId,
      device: deviceOf(failure.clientId),
      kind: failure.kind,
      seenAt: failure.seenAt,
    }));
    await this.deps.store.recordChecks(checkRows);
    await this.deps.store.recordFailures(failureRows);
    if (this.writtenCount + checks.length > MAX_WRITTEN) {
      this.written = new Map();
      this.writtenCount = 0;
    }
    // Only what was written: a check another app's device made of this release must not keep this
    // app's device from being counted.
    for (const check of checks) if (ofItsApp(check)) this.remember(check);
    for (const failure of failureRows) this.deps.onFailureReported?.(failure.kind);
    await this.checkHalts([...known.keys()]);
  }

  private remember({ updateId, clientId, seenAt }: PendingCheck): void {
    let devices = this.written.get(updateId);
    if (devices === undefined) {
      devices = new Map();
      this.written.set(updateId, devices);
    }
    if (!devices.has(clientId)) this.writtenCount++;
    devices.set(clientId, seenAt);
  }

  private async checkHalts(releaseIds: string[]): Promise<void> {
    if (releaseIds.length === 0) return;
    for (const rollout of await this.deps.rollouts.haltable(releaseIds)) {
      const rule = rollout.haltRule!;
      const health = await this.deps.store.health(rollout.releaseId);
      if (shouldHalt(rule, health)) {
        await this.deps.rollouts.halt(rollout.releaseId, haltReason(rule, health), { rule, health });
      }
    }
  }
}
