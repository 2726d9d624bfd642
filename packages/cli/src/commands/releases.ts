import {
  CHANNELS,
  type Channel,
  PLATFORMS,
  type Platform,
  RELEASE_LIST_DEFAULT_LIMIT,
  RELEASE_LIST_MAX_LIMIT,
  type ReleaseListItem,
  type ReleaseListQueryInput,
} from '@ferry/contracts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { releaseTable } from '../releases/release-table.js';
import { releaseClient } from '../releases/server-access.js';

interface ReleasesOptions {
  channel?: Channel;
  platform?: Platform;
  runtimeVersion?: string;
  group?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
  server?: string;
  app?: string;
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

const describeFilter = (options: ReleasesOptions): string => {
  const parts = [
    options.channel && `channel ${options.channel}`,
    options.platform && `platform ${options.platform}`,
    options.runtimeVersion && `runtimeVersion ${options.runtimeVersion}`,
    options.group && `release group ${options.group}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'all tracks' : parts.join(', ');
};

/**
 * `ferry releases`: releases newest first, of one track or across tracks (any of --channel,
 * --platform, --runtime-version narrows the list). A page at a time (`--cursor` continues), or
 * every page with `--all`. A table for people, `--json` for scripts: `{ releases, nextCursor }`.
 */
export function releasesCommand(deps: () => ReleasesDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('releases')
      .description('List releases newest first, of one track or across tracks; * marks the active release of a track')
      .addOption(new Option('--channel <channel>', 'only this channel').choices(CHANNELS))
      .addOption(new Option('--platform <platform>', 'only this platform').choices(PLATFORMS))
      .option('--runtime-version <version>', 'only this runtimeVersion, e.g. "1.4.0(41)"')
      .option('--group <id>', 'only the releases of this release group (both platforms of one publish)')
      .option(
        '--limit <n>',
        `releases per page (default ${RELEASE_LIST_DEFAULT_LIMIT}; with --all, ${RELEASE_LIST_MAX_LIMIT})`,
        limit,
      )
      .option('--cursor <cursor>', 'continue where an earlier page stopped (its nextCursor)')
      .addOption(new Option('--all', 'every page, not only the first').conflicts('cursor'))
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .option('--json', 'print JSON ({ releases, nextCursor }) instead of a table')
      .action(async (options: ReleasesOptions) => {
        const { env, out, fetch } = deps();
        const client = releaseClient(env, options, fetch);
        const query: ReleaseListQueryInput = {
          channel: options.channel,
          platform: options.platform,
          runtimeVersion: options.runtimeVersion,
          groupId: options.group,
          limit: options.limit ?? (options.all ? RELEASE_LIST_MAX_LIMIT : RELEASE_LIST_DEFAULT_LIMIT),
          cursor: options.cursor,
        };
        const releases: ReleaseListItem[] = [];
        let nextCursor: string | null = null;
        do {
          const page = await client.listReleases({ ...query, ...(nextCursor ? { cursor: nextCursor } : {}) });
          releases.push(...page.releases);
          nextCursor = page.nextCursor;
        } while (options.all && nextCursor);

        if (options.json) {
          out.write(`${JSON.stringify({ releases, nextCursor }, null, 2)}\n`);
          return;
        }
        const wholeTrack = options.channel && options.platform && options.runtimeVersion;
        const what = wholeTrack
          ? `${options.channel}/${options.platform}/${options.runtimeVersion}`
          : describeFilter(options);
        if (releases.length === 0) {
          out.write(`No releases${options.cursor ? ' after that cursor' : ''} for ${what}.\n`);
          return;
        }
        // Only a list that starts at the newest release knows which one is active.
        const markNewest = options.cursor === undefined;
        const legend = markNewest ? (wholeTrack ? ' (* = active)' : ' (* = active release of its track)') : '';
        out.write(
          `Releases of ${what}, newest first${legend}:\n` +
            `${releaseTable(releases, { showTrack: !wholeTrack, markNewest })}\n`,
        );
        if (nextCursor) out.write(`More: add --cursor ${nextCursor} (or --all for every page).\n`);
      });
  };
}

export const registerReleases = releasesCommand();
