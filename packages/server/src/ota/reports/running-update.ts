import type { ManifestRequest } from '@ferry/contracts';

/**
 * The release a device reports running on a manifest request: its `current-update-id`,
 * lowercased as release ids are, unless it is the update embedded in the build (the device runs
 * no release of ours then). Worked out once per kind of request (RememberedRequest), not per check.
 */
export function runningUpdateOf(
  request: Pick<ManifestRequest, 'currentUpdateId' | 'embeddedUpdateId'>,
): string | undefined {
  const current = request.currentUpdateId?.toLowerCase();
  return current !== undefined && current !== request.embeddedUpdateId?.toLowerCase() ? current : undefined;
}
