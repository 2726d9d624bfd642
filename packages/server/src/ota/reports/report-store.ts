import type { Adoption, RolloutHealth } from '@ferry/contracts';

/** A device seen running an update; `device` is the SHA-256 of its client id. */
export interface CheckReport {
  updateId: string;
  device: string;
  seenAt: number;
}

/** A device that reported an update as failed (before first render) or crashed on it. */
export interface FailureReport {
  updateId: string;
  device: string;
  kind: 'failed' | 'fatal';
  seenAt: number;
}

/** Where device reports are shared by every instance: the database (migration 015). */
export interface ReportStore {
  /** Which of these ids are releases: reports about anything else are not kept. */
  /** The releases among `ids`, with the app each belongs to. */
  knownReleases(ids: string[]): Promise<Map<string, string>>;
  recordChecks(reports: CheckReport[]): Promise<void>;
  /** The first report per update and device counts; later ones change nothing. */
  recordFailures(reports: FailureReport[]): Promise<void>;
  health(releaseId: string): Promise<RolloutHealth>;
  adoption(releaseIds: string[], now: number): Promise<Map<string, Adoption>>;
}
