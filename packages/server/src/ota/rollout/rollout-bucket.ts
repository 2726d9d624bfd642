import { hash } from 'node:crypto';

/**
 * A device's place in a release's rollout, in [0, 100): derived from the client id expo-updates
 * sends (`EAS-Client-ID`, stable per install) and the release id. Stable across checks, so a
 * device inside at 10 % stays inside at 50 % (its bucket is below both); and independent per
 * release, so the same devices are not always the first to get every release.
 */
export function rolloutBucket(clientId: string, releaseId: string): number {
  // The one-shot hash: about half the cost of createHash on the manifest path.
  const digest = hash('sha256', `${releaseId}:${clientId}`, 'buffer');
  // 32 bits are plenty: 100 buckets, each within 1e-7 of 1 %.
  return (digest.readUInt32BE(0) / 0x1_0000_0000) * 100;
}
