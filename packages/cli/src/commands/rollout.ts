import {
  CHANNELS,
  type Channel,
  PLATFORMS,
  type Platform,
  type RolloutChange,
  type RolloutView,
} from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import type { FerryClient } from '../http/ferry-client.js';
import { groupReleases, newestGroup, newestRelease } from '../releases/release-target.js';
import { releaseClient } from '../releases/server-access.js';
import { parsePercent } from './rollout-options.js';

interface RolloutOptions {
  percent?: number;
  complete?: boolean;
  halt?: boolean;
  resume?: boolean;
  revert?: boolean;
  group?: string;
  channel?: Channel;
  platform?: Platform | 'all';
  runtimeVersion?: string;
  json?: boolean;
  server?: string;
  app?: string;
}

export interface RolloutDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

const share = (rate: number | null) => (rate === null ? '-' : `${Number((rate * 100).toFixed(2))}%`);

/** The rollout as people read it: state, share, health, and why it stopped. */
export function describeRollout(rollout: RolloutView): string {
  const rule = rollout.haltRule
    ? `halts at ${share(rollout.haltRule.failureRate)} failures once ${rollout.haltRule.minDevices} devices received it`
    : 'no halt rule';
  return [
    `Release ${rollout.releaseId} on ${rollout.channel}/${rollout.platform}/${rollout.runtimeVersion}`,
    `  state:    ${rollout.state}${rollout.state === 'complete' ? '' : ` at ${rollout.percent}%`}`,
    `  devices:  ${rollout.health.received} received it, ${rollout.health.failed} reported it failed (${share(rollout.health.failureRate)})`,
    `  rule:     ${rule}`,
    ...(rollout.reason ? [`  reason:   ${rollout.reason}`] : []),
    `  changed:  ${rollout.updatedAt}`,
    '',
  ].join('\n');
}

/** What the command acts on: one release, or every release of a group. */
type Target = { kind: 'release'; releaseId: string } | { kind: 'group'; groupId: string };

/** The release or group the arguments name: an id, --group, or the newest on --channel (--platform). */
async function targetOf(client: FerryClient, releaseId: string | undefined, options: RolloutOptions): Promise<Target> {
  const named = [releaseId !== undefined, options.group !== undefined, options.platform !== undefined];
  if (named.filter(Boolean).length !== 1) {
    throw new CliError('name the rollout: a release id, --group <id>, or --channel with --platform ios|android|all');
  }
  if ((options.channel !== undefined || options.runtimeVersion !== undefined) && options.platform === undefined) {
    throw new CliError('--channel and --runtime-version go with --platform (the newest release or group there)');
  }
  if (releaseId !== undefined) return { kind: 'release', releaseId };
  if (options.group !== undefined) return { kind: 'group', groupId: options.group };
  if (options.channel === undefined) throw new CliError('--platform needs --channel');
  const of = { channel: options.channel, runtimeVersion: options.runtimeVersion };
  if (options.platform === 'all') return { kind: 'group', groupId: await newestGroup(client, of) };
  return { kind: 'release', releaseId: (await newestRelease(client, { ...of, platform: options.platform! })).id };
}

/**
 * `ferry rollout [releaseId]`: shows a staged rollout, or changes it (--percent, --complete, --halt,
 * --resume, --revert). `--group <id>`, or `--platform all` with --channel (the newest group there),
 * act on every platform of a release group at once: all of them change, or none.
 */
export function rolloutCommand(deps: () => RolloutDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('rollout')
      .description(
        "Show or change a release's staged rollout (or a release group's): --percent <n>, --complete, --halt, --resume or --revert",
      )
      .argument('[releaseId]', 'the release published with --rollout (see `ferry releases`)')
      .option('--group <id>', 'every release of this release group (see `ferry releases`)')
      .addOption(
        new Option('--channel <channel>', 'with --platform: the newest release on this channel').choices(CHANNELS),
      )
      .addOption(
        new Option(
          '--platform <platform>',
          'with --channel: the newest release of this platform, or `all` for the newest release group (both platforms)',
        ).choices([...PLATFORMS, 'all']),
      )
      .option('--runtime-version <version>', 'with --platform: only releases of this runtimeVersion')
      .option(
        '--percent <n>',
        'the new share of devices, 1–100 (100 completes it; a halted rollout runs again)',
        parsePercent,
      )
      .option('--complete', 'every device gets the release')
      .option('--halt', 'stop the spread: nobody else gets the release (devices that have it keep it)')
      .option('--resume', 'a halted rollout runs again at its share')
      .option('--revert', 'stop the rollout and publish the fallback again, so every device moves back')
      .option('--json', 'print the rollout (for a group: { groupId, rollouts }) as JSON')
      .addOption(new Option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)'))
      .addOption(appOption())
      .action(async (releaseId: string | undefined, options: RolloutOptions) => {
        const chosen = [options.percent !== undefined, options.complete, options.halt, options.resume, options.revert];
        if (chosen.filter(Boolean).length > 1) {
          throw new CliError('choose one of --percent, --complete, --halt, --resume and --revert');
        }
        const { env, out, fetch } = deps();
        const client = releaseClient(env, options, fetch);
        const actor = (env.GITHUB_ACTOR || env.USER || undefined)?.slice(0, 255);
        const runId = env.GITHUB_RUN_ID?.slice(0, 255) || undefined;
        const who = { ...(actor ? { actor } : {}), ...(runId ? { runId } : {}) };
        const change: RolloutChange | undefined =
          options.percent !== undefined
            ? { action: 'percent', percent: options.percent, ...who }
            : options.complete
              ? { action: 'complete', ...who }
              : options.halt
                ? { action: 'halt', ...who }
                : options.resume
                  ? { action: 'resume', ...who }
                  : options.revert
                    ? { action: 'revert', ...who }
                    : undefined;
        const target = await targetOf(client, releaseId, options);
        if (target.kind === 'release') {
          const { rollout } = change
            ? await client.changeRollout(target.releaseId, change)
            : await client.rollout(target.releaseId);
          out.write(options.json ? `${JSON.stringify(rollout, null, 2)}\n` : describeRollout(rollout));
        } else {
          const rollouts = change
            ? (await client.changeGroupRollout({ ...change, groupId: target.groupId })).rollouts
            : await Promise.all(
                (await groupReleases(client, target.groupId)).map(
                  async (release) => (await client.rollout(release.id)).rollout,
                ),
              );
          if (options.json) out.write(`${JSON.stringify({ groupId: target.groupId, rollouts }, null, 2)}\n`);
          else out.write(`Release group ${target.groupId}:\n${rollouts.map(describeRollout).join('')}`);
        }
        if (change?.action === 'revert') {
          out.write('Reverted: the fallback was published again; devices move back at their next update check.\n');
        }
      });
  };
}

export const registerRollout = rolloutCommand();
