import type { SignedManifest } from './manifest-response.js';

/** What a manifest request is answered with, before the structure (manifest-answer.ts) is chosen. */
export type ManifestOutcome =
  /** `noUpdateAvailable` is the signed directive an up-to-date expo-updates client gets in multipart/mixed. */
  | { kind: 'no-update'; reason: 'no-release' | 'up-to-date'; noUpdateAvailable?: SignedManifest }
  /** `fallback`: served instead of the head because of a rollout (the device is outside, or it is halted). */
  | { kind: 'update'; signed: SignedManifest; fallback?: true }
  | { kind: 'directive'; signed: SignedManifest; fallback?: true };

export type ManifestOutcomeLabel = 'update' | 'no-update' | 'directive' | 'rollout-fallback';

/** The outcome as the metrics count it. */
export function outcomeLabel(outcome: ManifestOutcome): ManifestOutcomeLabel {
  if (outcome.kind === 'no-update') return 'no-update';
  return outcome.fallback ? 'rollout-fallback' : outcome.kind;
}
