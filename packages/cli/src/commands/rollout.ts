import type { RolloutChange, RolloutView } from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { CliError } from '../cli-error.js';
import { releaseClient } from '../releases/server-access.js';
import { parsePercent } from './rollout-options.js';

interface RolloutOptions {
  percent?: number;
  complete?: boolean;
  revert?: boolean;
  json?: boolean;
  server?: string;
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

/**
 * `ferry rollout <releaseId>`: shows a staged rollout, or changes it (--percent, --complete,
 * --revert). A revert publishes the fallback again, so devices that run the release move back.
 */
export function rolloutCommand(deps: () => RolloutDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('rollout')
      .description("Show or change a release's staged rollout: --percent <n>, --complete or --revert")
      .argument('<releaseId>', 'the release published with --rollout (see `ferry releases`)')
      .option('--percent <n>', 'the new share of devices, 1–100 (100 completes it)', parsePercent)
      .option('--complete', 'every device gets the release')
      .option('--revert', 'stop the rollout and publish the fallback again, so every device moves back')
      .option('--json', 'print the rollout as JSON')
      .addOption(new Option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)'))
      .action(async (releaseId: string, options: RolloutOptions) => {
        const chosen = [options.percent !== undefined, options.complete, options.revert].filter(Boolean).length;
        if (chosen > 1) throw new CliError('choose one of --percent, --complete and --revert');
        const { env, out, fetch } = deps();
        const client = releaseClient(env, options.server, fetch);
        const actor = (env.GITHUB_ACTOR || env.USER || undefined)?.slice(0, 255);
        const runId = env.GITHUB_RUN_ID?.slice(0, 255) || undefined;
        const who = { ...(actor ? { actor } : {}), ...(runId ? { runId } : {}) };
        const change: RolloutChange | undefined =
          options.percent !== undefined
            ? { action: 'percent', percent: options.percent, ...who }
            : options.complete
              ? { action: 'complete', ...who }
              : options.revert
                ? { action: 'revert', ...who }
                : undefined;
        const { rollout } = change ? await client.changeRollout(releaseId, change) : await client.rollout(releaseId);
        out.write(options.json ? `${JSON.stringify(rollout, null, 2)}\n` : describeRollout(rollout));
        if (change?.action === 'revert') {
          out.write('Reverted: the fallback was published again; devices move back at their next update check.\n');
        }
      });
  };
}

export const registerRollout = rolloutCommand();
