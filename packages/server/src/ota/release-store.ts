import type { HaltRule, Release, ReleaseMetadata, RolloutState, UpdatePolicy } from '@ferry/contracts';
import type { Track } from './app-track.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import type { Timeline } from './rollout/track-timeline.js';

/** A release about to be stored; the store assigns nothing but the sequence number. */
export interface NewRelease {
  id: string;
  /** The app it is published to (docs/apps.md). */
  app: string;
  channel: Track['channel'];
  platform: Track['platform'];
  runtimeVersion: string;
  /** A URL given with the release is not stored (ota/assets/asset-urls.ts). */
  launchAsset: Release['launchAsset'];
  assets: Release['assets'];
  otaConfig: Record<string, unknown> | null;
  updatePolicy: UpdatePolicy | null;
  metadata: ReleaseMetadata;
  createdAt: Date;
  /** The release group it belongs to (ota: release groups); every release stored now has one. */
  groupId: string;
}

/** A track entry that is not a release (migration 014): devices go back to their embedded bundle. */
export interface Directive {
  id: string;
  app: string;
  channel: Track['channel'];
  platform: Track['platform'];
  runtimeVersion: string;
  type: 'rollBackToEmbedded';
  actor: string;
  /** ISO time; also the directive's commitTime. */
  createdAt: string;
}

/** A release's rollout as stored; a release without one reached every device at once. */
export interface Rollout {
  releaseId: string;
  percent: number;
  state: RolloutState;
  haltRule: HaltRule | null;
  reason: string | null;
  updatedAt: string;
}

/** A timeline entry with its signed parts (none for one stored before signing, or under an older key). */
export type StoredEntry =
  | { kind: 'release'; release: Release; signatures: ManifestSignature[] }
  | { kind: 'directive'; directive: Directive; signatures: ManifestSignature[] };

/** What a track serves, read in one go: head, head's rollout (unless complete), fallback. */
export type StoredTimeline = Timeline<StoredEntry>;

export interface NewAuditEvent {
  type: 'release.created' | 'release.rolled_back' | 'guard.bypassed' | (string & {});
  actor: string;
  /** The app it happened in (a track's event: the track's app). */
  app: string;
  track?: Track;
  releaseId?: string | null;
  details: Record<string, unknown>;
}

/** The view of one track inside its lock: nothing else can publish to it until the callback ends. */
export interface LockedTrack {
  newest(): Promise<Release | undefined>;
  /** The releases of a group as this transaction sees them, in the order of PLATFORMS. */
  group(groupId: string): Promise<Release[]>;
  /** The newest `limit` releases of the track, newest first (rollback needs the one before the newest). */
  recent(limit: number): Promise<Release[]>;
  insert(release: NewRelease): Promise<Release>;
  /**
   * Queues bundle patches to a new release's launch bundle from the track's earlier ones and its
   * embedded bundles (ota/patches), in the insert's transaction; returns how many were queued.
   */
  queuePatches(release: Release): Promise<number>;
  /** Keeps a release's signed manifests with it, in the same transaction as its insert. */
  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void>;
  /** An audit event of the locked track's app. */
  audit(event: Omit<NewAuditEvent, 'app'>): Promise<void>;
  /** The track's timeline as devices see it now (inside the lock, so it cannot change meanwhile). */
  timeline(): Promise<StoredTimeline>;
  /** When the newest entry (release or directive) was made: a new entry must be later. */
  newestEntryAt(): Promise<Date | undefined>;
  insertDirective(directive: Directive, signatures: ManifestSignature[]): Promise<void>;
  insertRollout(rollout: Rollout): Promise<void>;
  rollout(releaseId: string): Promise<Rollout | undefined>;
  updateRollout(releaseId: string, change: Pick<Rollout, 'percent' | 'state' | 'reason' | 'updatedAt'>): Promise<void>;
  /**
   * The keys among `keys` that a garbage collection is deleting, or began or finished deleting
   * after deletion version `since` (ota/gc/asset-deletions.ts): a release must not list them.
   */
  assetsCollectedSince(keys: readonly string[], since: number): Promise<string[]>;
  /** The deletion version to compare with later (assetsCollectedSince), read inside the lock. */
  deletionVersion(): Promise<number>;
  /** Running and halted rollouts of the track become superseded: a newer entry took their place. Returns their release ids. */
  supersedeRollouts(reason: string, at: Date): Promise<string[]>;
}

export interface ReleaseStore {
  newest(track: Track): Promise<Release | undefined>;
  /** The track's timeline with its signed parts: what a manifest answer needs. */
  timeline(track: Track): Promise<StoredTimeline>;
  /**
   * The timelines of the `limit` tracks published to most recently, most recent first: what a
   * starting instance loads before it answers.
   */
  timelinesOfRecentTracks(limit: number): Promise<StoredTimeline[]>;
  /** Replaces a release's stored signatures (after a key rotation, or for a release stored before them). */
  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void>;
  /** Replaces a directive's stored signatures (after a key rotation). */
  saveDirectiveSignatures(directiveId: string, signatures: ManifestSignature[]): Promise<void>;
  /** A release's rollout, if it was published with one. */
  rollout(releaseId: string): Promise<Rollout | undefined>;
  /** Running rollouts with a halt rule: what failure reports are checked against. */
  haltableRollouts(releaseIds: string[]): Promise<Rollout[]>;
  list(track: Track, limit: number): Promise<Release[]>;
  /** A release of the app by id; another app's release is not found. */
  findById(app: string, id: string): Promise<Release | undefined>;
  /** A release by id whatever its app: for the server's own actions (a rule's halt), never a request's. */
  findByIdInAnyApp(id: string): Promise<Release | undefined>;
  /** The releases of a release group, in the order of PLATFORMS; empty when no release has that group. */
  group(app: string, groupId: string): Promise<Release[]>;
  /**
   * Runs `work` with the track locked, in one transaction. If `work` throws, nothing it wrote is kept.
   * This is what makes the guard check and the insert one atomic step.
   */
  withTrackLock<T>(track: Track, work: (locked: LockedTrack) => Promise<T>): Promise<T>;
  /**
   * Runs `work` with every one of `tracks` locked, in one transaction (a release group's tracks):
   * `locked[i]` is the view of `tracks[i]`. If `work` throws, nothing it wrote on any track is kept.
   */
  withTracksLock<T>(tracks: Track[], work: (locked: LockedTrack[]) => Promise<T>): Promise<T>;
  /** How many releases are stored in all; used by health checks and tests. */
  count(): Promise<number>;
}
