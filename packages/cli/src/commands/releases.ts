import { CHANNELS, type Channel, PLATFORMS, type Platform, RELEASE_LIST_MAX_LIMIT } from '@ferry/contracts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { releaseTable } from '../releases/release-table.js';
import { releaseClient } from '../releases/server-access.js';

interface ReleasesOptions {
  channel: Channel;
  platform: Platform;
  runtimeVersion: string;
  limit: number;
  server?: string;
  json?: boolean;
}

export interface ReleasesDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

const limit = (raw: string): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > RELEASE_LIST_MAX_LIMIT) {
    throw new InvalidArgumentError(`a whole number from 1 to ${RELEASE_LIST_MAX_LIMIT}`);
  }
  return value;
};

/** `ferry releases`: a track's releases as a table, newest (active) first. */
export function releasesCommand(deps: () => ReleasesDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('releases')
      .description("List a track's releases, newest (active) first")
      .addOption(new Option('--channel <channel>', 'channel').choices(CHANNELS).makeOptionMandatory())
      .addOption(new Option('--platform <platform>', 'platform').choices(PLATFORMS).makeOptionMandatory())
      .requiredOption('--runtime-version <version>', 'runtimeVersion of the track, e.g. "1.4.0(41)"')
      .option('--limit <n>', 'how many releases', limit, 20)
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .option('--json', 'print JSON instead of a table')
      .action(async (options: ReleasesOptions) => {
        const { env, out, fetch } = deps();
        const releases = await releaseClient(env, options.server, fetch).listReleases({
          channel: options.channel,
          platform: options.platform,
          runtimeVersion: options.runtimeVersion,
          limit: options.limit,
        });
        if (options.json) {
          out.write(`${JSON.stringify(releases, null, 2)}\n`);
          return;
        }
        const track = `${options.channel}/${options.platform}/${options.runtimeVersion}`;
        if (releases.length === 0) {
          out.write(`No releases for ${track}.\n`);
          return;
        }
        out.write(`Releases of ${track} (* = active):\n${releaseTable(releases)}\n`);
      });
  };
}

export const registerReleases = releasesCommand();
