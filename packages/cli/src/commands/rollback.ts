import { CHANNELS, type Channel, PLATFORMS, type Platform, type ReleaseSummary } from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { CliError } from '../cli-error.js';
import { releaseClient } from '../releases/server-access.js';

interface RollbackOptions {
  channel: Channel;
  platform: Platform;
  runtimeVersion: string;
  to?: string;
  toEmbedded?: boolean;
  server?: string;
}

export interface RollbackDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

const describe = (release: ReleaseSummary) =>
  `${release.id} (created ${release.createdAt}, fingerprint ${release.fingerprint ?? 'none'}, update policy ${release.updatePolicy ?? 'default'})`;

/**
 * `ferry rollback`: republishes an earlier release of a track as its new, active record. It needs
 * no fingerprint of its own (the restored release's is kept), so unlike publish it may run anywhere.
 */
export function rollbackCommand(deps: () => RollbackDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('rollback')
      .description(
        'Republish an earlier release of a track as its new active release (default: the one before the newest)',
      )
      .addOption(new Option('--channel <channel>', 'channel').choices(CHANNELS).makeOptionMandatory())
      .addOption(new Option('--platform <platform>', 'platform').choices(PLATFORMS).makeOptionMandatory())
      .requiredOption('--runtime-version <version>', 'runtimeVersion of the track, e.g. "1.4.0(41)"')
      .option('--to <releaseId>', 'the release to restore (see `ferry releases`)')
      .option('--to-embedded', "send the track's devices back to the bundle embedded in their build")
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .action(async (options: RollbackOptions) => {
        const { env, out, fetch } = deps();
        const actor = env.GITHUB_ACTOR || env.USER || undefined;
        const runId = env.GITHUB_RUN_ID || undefined;
        const track = `${options.channel}/${options.platform}/${options.runtimeVersion}`;
        if (options.toEmbedded) {
          if (options.to) throw new CliError('choose --to or --to-embedded, not both');
          const { directive } = await releaseClient(env, options.server, fetch).rollBackToEmbedded({
            channel: options.channel,
            platform: options.platform,
            runtimeVersion: options.runtimeVersion,
            type: 'rollBackToEmbedded',
            ...(actor ? { actor: actor.slice(0, 255) } : {}),
            ...(runId ? { runId: runId.slice(0, 255) } : {}),
          });
          out.write(
            [
              `Rolled ${track} back to the embedded bundle (directive ${directive.id}, commitTime ${directive.createdAt}).`,
              'Apps return to the bundle in their build at their next update check, until the next publish on this track.',
              '',
            ].join('\n'),
          );
          return;
        }
        const result = await releaseClient(env, options.server, fetch).rollback({
          channel: options.channel,
          platform: options.platform,
          runtimeVersion: options.runtimeVersion,
          ...(options.to ? { to: options.to } : {}),
          ...(actor ? { actor: actor.slice(0, 255) } : {}),
          ...(runId ? { runId: runId.slice(0, 255) } : {}),
        });
        out.write(
          [
            `Rolled back ${track}.`,
            `  active now: ${describe(result.release)}`,
            `  a copy of:  ${describe(result.restored)}`,
            `  replacing:  ${describe(result.replaced)}`,
            'Apps pick it up at their next update check; the next publish is compared with the restored fingerprint.',
            '',
          ].join('\n'),
        );
      });
  };
}

export const registerRollback = rollbackCommand();
