import {
  CHANNELS,
  type Channel,
  FerryHttpError,
  PLATFORMS,
  type Platform,
  type PromoteResponse,
} from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import { parseAllowNativeChange } from '../publish/publish-environment.js';
import { GUARD_REFUSED_EXIT_CODE } from '../publish/publisher.js';
import { newestGroup, newestRelease } from '../releases/release-target.js';
import { releaseClient } from '../releases/server-access.js';
import { parseFailureRate, parseMinDevices, parsePercent, rolloutRequest } from './rollout-options.js';

interface PromoteOptions {
  from?: Channel;
  to: Channel;
  platform?: Platform | 'all';
  runtimeVersion?: string;
  release?: string;
  group?: string;
  rollout?: number;
  haltOnFailureRate?: number;
  haltMinDevices?: number;
  json?: boolean;
  server?: string;
  app?: string;
}

export interface PromoteDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

/** What is promoted: a release or a group by id, else the newest release (or group) on --from. */
async function sourceOf(
  client: ReturnType<typeof releaseClient>,
  options: PromoteOptions,
): Promise<{ releaseId: string } | { groupId: string }> {
  const named = [options.release, options.group].filter((value) => value !== undefined).length;
  if (named > 1) throw new CliError('choose --release or --group, not both');
  if (named === 1 && (options.platform !== undefined || options.runtimeVersion !== undefined)) {
    throw new CliError('--release and --group name the source: leave out --platform and --runtime-version');
  }
  if (options.release !== undefined) return { releaseId: options.release };
  if (options.group !== undefined) return { groupId: options.group };
  if (options.from === undefined)
    throw new CliError('name the source: --from <channel> (its newest), --release or --group');
  const platform = options.platform ?? 'all';
  const of = { channel: options.from, runtimeVersion: options.runtimeVersion };
  if (platform === 'all') return { groupId: await newestGroup(client, of) };
  return { releaseId: (await newestRelease(client, { ...of, platform })).id };
}

const describe = (result: PromoteResponse, to: Channel): string =>
  [
    ...result.promotions.map(
      ({ release, source }) =>
        `${release.platform}: promoted release ${source.id} (${source.channel}) to ${to}/${release.platform}/${release.runtimeVersion} as ${release.id}`,
    ),
    `release group ${result.groupId} on ${to}${result.sourceGroupId ? ` (promoted from group ${result.sourceGroupId})` : ''}`,
    '',
  ].join('\n');

/**
 * `ferry promote --from development --to production`: republishes the newest release group of a
 * channel (or --platform's newest release, --release, --group) to another channel, through the
 * native-change guard as a publish there. Exit codes as `ferry publish`: 2 when the guard refuses.
 */
export function promoteCommand(deps: () => PromoteDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('promote')
      .description(
        'Republish a release, or both platforms of a release group, to another channel (e.g. development → production)',
      )
      .addOption(
        new Option('--from <channel>', 'the channel whose newest release group (or release) is promoted').choices(
          CHANNELS,
        ),
      )
      .addOption(new Option('--to <channel>', 'the channel to publish it to').choices(CHANNELS).makeOptionMandatory())
      .addOption(
        new Option(
          '--platform <platform>',
          'with --from: the newest release of one platform, or `all` (default): the newest release group',
        ).choices([...PLATFORMS, 'all']),
      )
      .option('--runtime-version <version>', 'with --from: only releases of this runtimeVersion')
      .option('--release <id>', 'promote this release')
      .option('--group <id>', 'promote every release of this release group, all or none')
      .option('--rollout <percent>', 'publish to this share of devices on the target channel (1–100)', parsePercent)
      .option(
        '--halt-on-failure-rate <rate>',
        'with --rollout: halt it at this failure rate, e.g. 2%',
        parseFailureRate,
      )
      .option(
        '--halt-min-devices <n>',
        'with --halt-on-failure-rate: devices needed before it may halt',
        parseMinDevices,
      )
      .option('--json', 'print the answer as JSON')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .action(async (options: PromoteOptions) => {
        const { env, out, fetch } = deps();
        const rollout = rolloutRequest(options);
        const allowNativeChange = parseAllowNativeChange(env.OTA_ALLOW_NATIVE_CHANGE);
        const client = releaseClient(env, options, fetch);
        const source = await sourceOf(client, options);
        const actor = (env.GITHUB_ACTOR || env.USER || undefined)?.slice(0, 255);
        const runId = env.GITHUB_RUN_ID?.slice(0, 255) || undefined;
        let result: PromoteResponse;
        try {
          result = await client.promote({
            ...source,
            toChannel: options.to,
            ...(rollout ? { rollout } : {}),
            ...(allowNativeChange ? { allowNativeChange: true } : {}),
            ...(actor ? { actor } : {}),
            ...(runId ? { runId } : {}),
          });
        } catch (error) {
          if (error instanceof FerryHttpError && error.code === 'NATIVE_FINGERPRINT_CHANGED') {
            throw new CliError(
              `The server refused the promotion (native-change guard, ${error.code}).\n  ${error.message}`,
              GUARD_REFUSED_EXIT_CODE,
            );
          }
          throw error;
        }
        out.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : describe(result, options.to));
      });
  };
}

export const registerPromote = promoteCommand();
