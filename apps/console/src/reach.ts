/**
 * About how many devices an action reaches on their next update check, estimated from the devices
 * seen running a release of the track in the last 7 days (`trackDevices`) and those that already
 * received the release (`received`). Null when no device was seen on the track: then nothing can be
 * estimated, and the console says so rather than "0 devices".
 */
export type ReachAction =
  /** The rollout's share becomes `to` %. */
  | { kind: 'share'; to: number }
  | { kind: 'complete' }
  /** Devices that received the release go back to the track's fallback. */
  | { kind: 'revert' }
  /** An earlier release, or the embedded bundle, becomes what every device of the track gets. */
  | { kind: 'whole-track' };

export function reachOf(action: ReachAction, facts: { trackDevices: number; received: number }): number | null {
  switch (action.kind) {
    case 'revert':
      return facts.received;
    case 'whole-track':
      return facts.trackDevices === 0 ? null : facts.trackDevices;
    case 'complete':
      return reachOf({ kind: 'share', to: 100 }, facts);
    case 'share':
      // The share's devices, less those that already have it (they are in the share already).
      return facts.trackDevices === 0
        ? null
        : Math.max(0, Math.round((facts.trackDevices * action.to) / 100) - facts.received);
  }
}

/**
 * The same for an action on every platform of a release group at once: the sum over its platforms,
 * and null (cannot be estimated) as soon as one platform's cannot be, so a group's estimate is
 * never a part passed off as the whole.
 */
export function groupReachOf(
  action: ReachAction,
  platforms: ReadonlyArray<{ trackDevices: number; received: number }>,
): number | null {
  let total = 0;
  for (const facts of platforms) {
    const reach = reachOf(action, facts);
    if (reach === null) return null;
    total += reach;
  }
  return platforms.length === 0 ? null : total;
}
