import { randomUUID } from 'node:crypto';
import type { Release } from '@ferry/contracts';
import type { Track } from './app-track.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import type { Directive, LockedTrack, NewRelease } from './release-store.js';

/** Signs a release's manifests, or a roll back to embedded (whose commitTime is its createdAt). */
export interface EntrySigner {
  /** Signs with the key of the release's app. */
  release?: (release: Release) => ManifestSignature[] | Promise<ManifestSignature[]>;
  rollBackToEmbedded?: (app: string, createdAt: string) => ManifestSignature[] | Promise<ManifestSignature[]>;
}

export interface InsertedRelease {
  release: Release;
  signatures: ManifestSignature[];
  /** Bundle patches queued to its launch bundle, made once the transaction commits. */
  patchesQueued: number;
}

/**
 * Inserts a release and its signed manifests: inside the track lock, so it is signed exactly once.
 * A rollout still running on the track ends here: the new release takes its place.
 */
export async function insertSignedRelease(
  locked: LockedTrack,
  release: NewRelease,
  signer: EntrySigner,
): Promise<InsertedRelease> {
  const created = await locked.insert(release);
  const signatures = (await signer.release?.(created)) ?? [];
  await locked.saveSignatures(created.id, signatures);
  await locked.supersedeRollouts(`superseded by release ${created.id}`, release.createdAt);
  const patchesQueued = await locked.queuePatches(created);
  return { release: created, signatures, patchesQueued };
}

/** Inserts a signed roll back to embedded; like a release, it ends a rollout running on the track. */
export async function insertRollBackToEmbedded(
  locked: LockedTrack,
  track: Track,
  options: { actor: string; createdAt: Date },
  signer: EntrySigner,
): Promise<Directive> {
  const directive: Directive = {
    id: randomUUID(),
    ...track,
    type: 'rollBackToEmbedded',
    actor: options.actor,
    createdAt: options.createdAt.toISOString(),
  };
  await locked.insertDirective(directive, (await signer.rollBackToEmbedded?.(track.app, directive.createdAt)) ?? []);
  await locked.supersedeRollouts(`superseded by a roll back to embedded (${directive.id})`, options.createdAt);
  return directive;
}
