import type { Channel, Platform, ReleaseListItem } from '@ferry/contracts';
import { CliError } from '../cli-error.js';
import type { FerryClient } from '../http/ferry-client.js';

/** How a release-control command names what it acts on without an id. */
export interface NewestOf {
  channel: Channel;
  /** `all`: the newest release group (every platform of one publish). */
  platform: Platform | 'all';
  runtimeVersion?: string;
}

const where = (of: NewestOf) =>
  [of.channel, of.platform === 'all' ? undefined : of.platform, of.runtimeVersion].filter(Boolean).join('/');

/** The newest release of a channel, narrowed to a platform and runtimeVersion when given. */
export async function newestRelease(client: FerryClient, of: NewestOf): Promise<ReleaseListItem> {
  const { releases } = await client.listReleases({
    channel: of.channel,
    ...(of.platform === 'all' ? {} : { platform: of.platform }),
    ...(of.runtimeVersion === undefined ? {} : { runtimeVersion: of.runtimeVersion }),
    limit: 1,
  });
  const newest = releases[0];
  if (!newest) throw new CliError(`No release on ${where(of)}.`);
  return newest;
}

/**
 * The group of the newest release of a channel (and runtimeVersion): `--platform all`. A release
 * stored before release groups existed has none.
 */
export async function newestGroup(client: FerryClient, of: Omit<NewestOf, 'platform'>): Promise<string> {
  const newest = await newestRelease(client, { ...of, platform: 'all' });
  if (newest.groupId === null) {
    throw new CliError(
      `The newest release on ${where({ ...of, platform: 'all' })} (${newest.id}) belongs to no release group ` +
        '(it was published before groups existed): name one platform with --platform ios or --platform android.',
    );
  }
  return newest.groupId;
}

/** The releases of a group, in the order the server lists them (newest first). */
export async function groupReleases(client: FerryClient, groupId: string): Promise<ReleaseListItem[]> {
  const { releases } = await client.listReleases({ groupId, limit: 100 });
  if (releases.length === 0) throw new CliError(`No release belongs to the release group ${groupId}.`);
  return releases;
}

/** `ios 1.4.0(41), android 1.4.0(12)`: what a group holds, as people read it. */
export const describeGroup = (releases: Array<Pick<ReleaseListItem, 'platform' | 'runtimeVersion'>>): string =>
  releases.map((release) => `${release.platform} ${release.runtimeVersion}`).join(', ');
