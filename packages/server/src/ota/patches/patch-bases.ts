import type { PatchBaseKind } from '@ferry/contracts';

/** A launch bundle a patch may start from. */
export interface PatchBase {
  kind: PatchBaseKind;
  /** The update devices running it send as their current update. */
  updateId: string;
  hash: string;
  /** Where its bytes are stored. */
  key: string;
}

/**
 * The bases a new launch bundle gets patches from: the launch bundles of the track's `limit` most
 * recent earlier releases (newest first, each bundle once), then the `limit` most recently
 * registered embedded bundles of its platform and runtime version. A base equal to the target
 * needs no patch: its devices download nothing (expo-updates finds the asset it already has).
 * A release that shipped an embedded bundle's bytes is one base, read from the embedded copy,
 * which garbage collection never deletes.
 */
export function patchBasesFor(
  targetHash: string,
  earlierReleases: readonly PatchBase[],
  embedded: readonly PatchBase[],
  limit: number,
): PatchBase[] {
  const chosen: PatchBase[] = [];
  const seen = new Set([targetHash]);
  const take = (candidates: readonly PatchBase[]) => {
    let taken = 0;
    for (const base of candidates) {
      if (taken >= limit) return;
      if (seen.has(base.hash)) continue;
      seen.add(base.hash);
      chosen.push(base);
      taken++;
    }
  };
  take(earlierReleases);
  take(embedded);
  return chosen.map((base) => {
    const copy = base.kind === 'release' && embedded.find((candidate) => candidate.hash === base.hash);
    return copy ? { ...base, key: copy.key } : base;
  });
}
