import type { Release, ReleaseAsset, ReleaseMetadata, Track, UpdatePolicy } from '@ferry/contracts';
import type { ManifestSignature } from './manifest/release-signatures.js';

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
  /** Keeps a release's signed manifests with it, in the same transaction as its insert. */
  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void>;
  audit(event: NewAuditEvent): Promise<void>;
}

/** A track's newest release with the manifests signed for it (none for a release stored before signing at publish). */
export interface SignedRelease {
  release: Release;
  signatures: ManifestSignature[];
}

export interface ReleaseStore {
  newest(track: Track): Promise<Release | undefined>;
  /** The newest release and its stored signatures: what a manifest answer needs, in one read. */
  newestSigned(track: Track): Promise<SignedRelease | undefined>;
  /**
   * The newest release and signatures of each of the `limit` tracks published to most recently,
   * most recent first: what a starting instance loads before it answers.
   */
  newestSignedOfRecentTracks(limit: number): Promise<SignedRelease[]>;
  /** Replaces a release's stored signatures (after a key rotation, or for a release stored before them). */
  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void>;
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
