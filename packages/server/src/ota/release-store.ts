import type { Release, ReleaseAsset, ReleaseMetadata, Track, UpdatePolicy } from '@ferry/contracts';

/** A release about to be stored; the store assigns nothing but the sequence number. */
export interface NewRelease {
  id: string;
  channel: Track['channel'];
  platform: Track['platform'];
  runtimeVersion: string;
  launchAsset: ReleaseAsset;
  assets: ReleaseAsset[];
  otaConfig: Record<string, unknown> | null;
  updatePolicy: UpdatePolicy | null;
  metadata: ReleaseMetadata;
  createdAt: Date;
}

export interface NewAuditEvent {
  type: 'release.created' | 'release.rolled_back' | 'guard.bypassed' | (string & {});
  actor: string;
  track?: Track;
  releaseId?: string | null;
  details: Record<string, unknown>;
}

/** The view of one track inside its lock: nothing else can publish to it until the callback ends. */
export interface LockedTrack {
  newest(): Promise<Release | undefined>;
  /** The newest `limit` releases of the track, newest first (rollback needs the one before the newest). */
  recent(limit: number): Promise<Release[]>;
  insert(release: NewRelease): Promise<Release>;
  audit(event: NewAuditEvent): Promise<void>;
}

export interface ReleaseStore {
  newest(track: Track): Promise<Release | undefined>;
  list(track: Track, limit: number): Promise<Release[]>;
  findById(id: string): Promise<Release | undefined>;
  /**
   * Runs `work` with the track locked, in one transaction. If `work` throws, nothing it wrote is kept.
   * This is what makes the guard check and the insert one atomic step.
   */
  withTrackLock<T>(track: Track, work: (locked: LockedTrack) => Promise<T>): Promise<T>;
  /** How many releases are stored in all; used by health checks and tests. */
  count(): Promise<number>;
}
