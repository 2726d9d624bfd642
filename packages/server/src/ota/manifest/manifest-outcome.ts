import type { SignedManifest } from './manifest-response.js';

/** What a manifest request is answered with, before the structure (manifest-answer.ts) is chosen. */
export type ManifestOutcome =
  /** `noUpdateAvailable` is the signed directive an up-to-date expo-updates client gets in multipart/mixed. */
  | {
      kind: 'no-update';
      /**
       * `no-release`: the track has no release at all; `outside-rollout`: its only release is a
       * rollout this device does not get (outside it, or halted); `up-to-date`: the device runs
       * what it would get.
       */
      reason: 'no-release' | 'outside-rollout' | 'up-to-date';
      noUpdateAvailable?: SignedManifest;
    }
  /** `fallback`: served instead of the head because of a rollout (the device is outside, or it is halted). */
  | { kind: 'update'; signed: SignedManifest; fallback?: true }
  | { kind: 'directive'; signed: SignedManifest; fallback?: true };

export type ManifestOutcomeLabel = 'update' | 'no-update' | 'directive' | 'rollout-fallback';

/** The outcome as the metrics count it. */
export function outcomeLabel(outcome: ManifestOutcome): ManifestOutcomeLabel {
  if (outcome.kind === 'no-update') return 'no-update';
  return outcome.fallback ? 'rollout-fallback' : outcome.kind;
}

/**
 * The answer for a track that has no release: one object, so that the manifest paths tell it from
 * every other outcome by identity (counted per runtime version, ferry_manifest_no_release_total).
 */
export const NO_RELEASE: ManifestOutcome = { kind: 'no-update', reason: 'no-release' };
/** A device the rollout of a track's only release does not reach: nothing for it, but not "no release". */
export const OUTSIDE_ROLLOUT: ManifestOutcome = { kind: 'no-update', reason: 'outside-rollout' };
