import {
  CHANNELS,
  type Channel,
  type DirectiveView,
  type GroupRollbackResponse,
  PLATFORMS,
  type Platform,
  type ReleaseSummary,
  type TrackRollbackResponse,
} from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import { newestGroup } from '../releases/release-target.js';
import { releaseClient } from '../releases/server-access.js';

interface RollbackOptions {
  channel?: Channel;
  platform?: Platform | 'all';
  runtimeVersion?: string;
  group?: string;
  to?: string;
  toGroup?: string;
  toEmbedded?: boolean;
  server?: string;
  app?: string;
}

export interface RollbackDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

const describe = (release: ReleaseSummary) =>
  `${release.id} (created ${release.createdAt}, fingerprint ${release.fingerprint ?? 'none'}, update policy ${release.updatePolicy ?? 'default'})`;

const trackOfView = (entry: { channel: string; platform: string; runtimeVersion: string }) =>
  `${entry.channel}/${entry.platform}/${entry.runtimeVersion}`;

const rolledBack = (result: TrackRollbackResponse) => [
  `Rolled back ${trackOfView(result.release)}.`,
  `  active now: ${describe(result.release)}`,
  `  a copy of:  ${describe(result.restored)}`,
  `  replacing:  ${describe(result.replaced)}`,
];

const embedded = (directive: DirectiveView) =>
  `Rolled ${trackOfView(directive)} back to the embedded bundle (directive ${directive.id}, commitTime ${directive.createdAt}).`;

/** What the options name: one track, or every platform of a group (--group, or --platform all). */
function checkOptions(options: RollbackOptions): 'track' | 'group' {
  if (options.group !== undefined) {
    if (options.channel !== undefined || options.platform !== undefined || options.runtimeVersion !== undefined) {
      throw new CliError('--group names the releases: leave out --channel, --platform and --runtime-version');
    }
  } else {
    if (options.channel === undefined || options.platform === undefined) {
      throw new CliError(
        'name the track (--channel, --platform, --runtime-version) or the release group (--group <id>)',
      );
    }
    if (options.platform !== 'all' && options.runtimeVersion === undefined) {
      throw new CliError('--runtime-version is required with --platform ios or android');
    }
  }
  const group = options.group !== undefined || options.platform === 'all';
  if (options.toEmbedded && (options.to || options.toGroup))
    throw new CliError('choose --to or --to-embedded, not both');
  if (group && options.to) throw new CliError('--to names a release of one track; for a release group use --to-group');
  if (!group && options.toGroup) throw new CliError('--to-group goes with --group or --platform all');
  return group ? 'group' : 'track';
}

/**
 * `ferry rollback`: republishes an earlier release of a track as its new, active record, or rolls
 * every platform of a release group back at once (--group, or --platform all: the newest group on
 * the channel). It needs no fingerprint of its own (the restored release's is kept), so unlike
 * publish it may run anywhere.
 */
export function rollbackCommand(deps: () => RollbackDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('rollback')
      .description(
        'Republish an earlier release of a track (or of every platform of a release group) as its new active release (default: the one before the newest)',
      )
      .addOption(new Option('--channel <channel>', 'channel').choices(CHANNELS))
      .addOption(
        new Option('--platform <platform>', 'platform, or `all`: every platform of the newest release group').choices([
          ...PLATFORMS,
          'all',
        ]),
      )
      .option(
        '--runtime-version <version>',
        'runtimeVersion of the track, e.g. "1.4.0(41)" (with --platform all: the newest group with a release of it)',
      )
      .option('--group <id>', 'every platform of this release group (see `ferry releases`)')
      .option('--to <releaseId>', 'the release to restore (see `ferry releases`)')
      .option('--to-group <id>', 'with a group: restore the releases of this earlier release group')
      .option('--to-embedded', 'send the devices back to the bundle embedded in their build')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .action(async (options: RollbackOptions) => {
        const kind = checkOptions(options);
        const { env, out, fetch } = deps();
        const client = releaseClient(env, options, fetch);
        const actor = env.GITHUB_ACTOR || env.USER || undefined;
        const runId = env.GITHUB_RUN_ID || undefined;
        const who = {
          ...(actor ? { actor: actor.slice(0, 255) } : {}),
          ...(runId ? { runId: runId.slice(0, 255) } : {}),
        };
        const target =
          kind === 'group'
            ? {
                groupId:
                  options.group ??
                  (await newestGroup(client, { channel: options.channel!, runtimeVersion: options.runtimeVersion })),
              }
            : {
                channel: options.channel!,
                platform: options.platform as Platform,
                runtimeVersion: options.runtimeVersion!,
              };
        if (options.toEmbedded) {
          const answer = await client.rollBackToEmbedded({ ...target, type: 'rollBackToEmbedded', ...who });
          const directives = 'directives' in answer ? answer.directives : [answer.directive];
          out.write(
            [
              ...('groupId' in answer ? [`Release group ${answer.groupId}, every platform:`] : []),
              ...directives.map(embedded),
              'Apps return to the bundle in their build at their next update check, until the next publish on the track.',
              '',
            ].join('\n'),
          );
          return;
        }
        const result = await client.rollback({
          ...target,
          ...(options.to ? { to: options.to } : {}),
          ...(options.toGroup ? { toGroupId: options.toGroup } : {}),
          ...who,
        });
        const group = 'rollbacks' in result ? (result as GroupRollbackResponse) : undefined;
        out.write(
          [
            ...(group
              ? [
                  `Rolled back release group ${group.rolledBackGroupId}, every platform (the copies are group ${group.groupId}).`,
                  ...group.rollbacks.flatMap(rolledBack),
                ]
              : rolledBack(result as TrackRollbackResponse)),
            'Apps pick it up at their next update check; the next publish is compared with the restored fingerprint.',
            '',
          ].join('\n'),
        );
      });
  };
}

export const registerRollback = rollbackCommand();
