import {
  ASSET_GC_DEFAULT_KEEP,
  ASSET_GC_MAX_KEEP,
  type AssetGcResponse,
  type AssetVerifyResponse,
  type ObjectTally,
} from '@ferry/contracts';
import { type Command, InvalidArgumentError } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import { releaseClient } from '../releases/server-access.js';

interface GcOptions {
  keep: number;
  apply?: boolean;
  verify?: boolean;
  server?: string;
  app?: string;
  json?: boolean;
}

export interface GcDependencies {
  env: Record<string, string | undefined>;
  out: { write(text: string): unknown };
  fetch?: typeof fetch;
}

const keep = (raw: string): number => {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(value) || value < 1 || value > ASSET_GC_MAX_KEEP) {
    throw new InvalidArgumentError(`a whole number from 1 to ${ASSET_GC_MAX_KEEP}`);
  }
  return value;
};

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
};

const objects = (tally: ObjectTally) =>
  `${tally.objects} object${tally.objects === 1 ? '' : 's'} (${formatBytes(tally.bytes)})`;

const duration = (seconds: number): string =>
  seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

/** The answer for people: what stays, what went (or would go), and what was left for later. */
export function describeGc(answer: AssetGcResponse): string {
  const { collected } = answer;
  const lines = [
    answer.dryRun
      ? 'Dry run: nothing was deleted. Run again with --apply to delete what is listed here.'
      : 'Garbage collection done.',
    `Kept ${answer.releasesKept} of ${answer.releases} releases in ${answer.tracks} track${answer.tracks === 1 ? '' : 's'} ` +
      `(the newest ${answer.keepPerTrack} per track, each head, rollout fallback and running or halted rollout): ` +
      `${objects(answer.kept)} of assets they list.`,
    `${answer.dryRun ? 'Would delete' : 'Deleted'}: ${objects(collected)}, ` +
      `${collected.assets} asset${collected.assets === 1 ? '' : 's'}, ${collected.encodedForms} compressed form${collected.encodedForms === 1 ? '' : 's'} and ${collected.patches} bundle patch${collected.patches === 1 ? '' : 'es'}.`,
  ];
  if (answer.young.objects > 0) {
    lines.push(
      `Left for a later run: ${objects(answer.young)} younger than the grace period (${duration(answer.graceSeconds)}); a publish may be about to list them.`,
    );
  }
  if (answer.failed.objects > 0) {
    lines.push(
      `Could not delete ${objects(answer.failed)}: they are still stored, and the next run tries again (see the server log).`,
    );
  }
  if (answer.sample.length > 0) {
    lines.push(`${answer.dryRun ? 'For example' : 'Among them'}:`, ...answer.sample.map((key) => `  ${key}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The integrity check for people: what was read, then each kept release with a bad asset. */
export function describeVerification(answer: AssetVerifyResponse): string {
  const lines = [
    `Checked ${objects(answer.checked)} listed by ${answer.releasesKept} kept release${answer.releasesKept === 1 ? '' : 's'} ` +
      `(the newest ${answer.keepPerTrack} per track, each head, rollout fallback and running or halted rollout).`,
  ];
  if (answer.releasesWithProblems === 0) {
    lines.push('Every asset they list is stored with the bytes its hash names.');
  } else {
    lines.push(
      `${answer.releasesWithProblems} kept release${answer.releasesWithProblems === 1 ? '' : 's'} list assets that are missing or corrupt; devices fail those updates. Publish the track again, or roll it back to a release without problems:`,
      ...answer.problems.map(
        (p) => `  ${p.problem.padEnd(7)} ${p.releaseId} ${p.channel}/${p.platform}/${p.runtimeVersion} ${p.key}`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `ferry gc`: deletes stored update assets (and their compressed forms) that no release the server
 * keeps lists. A dry run unless `--apply`. It goes through the server (POST /api/updates/gc) with
 * the release token, so CI needs no object-store credentials. Exit 1 when a deletion failed.
 */
export function gcCommand(deps: () => GcDependencies = () => ({ env: process.env, out: process.stdout })) {
  return (program: Command): void => {
    program
      .command('gc')
      .description(
        'Delete stored update assets no kept release lists (keeps the newest N releases per track, each head, rollout fallback and active rollout); a dry run unless --apply',
      )
      .option(
        '--keep <n>',
        `releases kept per track, 1 to ${ASSET_GC_MAX_KEEP} (a rollback can restore only these)`,
        keep,
        ASSET_GC_DEFAULT_KEEP,
      )
      .option('--apply', 'delete (without it, only report what would be deleted)')
      .option(
        '--verify',
        'delete nothing: read every asset the kept releases list and name each release with a missing or corrupt one (exit 1 if any)',
      )
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .option('--json', 'print the server answer as JSON')
      .action(async (options: GcOptions) => {
        const { env, out, fetch } = deps();
        const actor = env.GITHUB_ACTOR || env.USER || undefined;
        const runId = env.GITHUB_RUN_ID || undefined;
        if (options.verify) {
          if (options.apply) throw new CliError('--verify deletes nothing: leave out --apply');
          const verified = await releaseClient(env, options, fetch).verifyAssets({ keepPerTrack: options.keep });
          out.write(options.json ? `${JSON.stringify(verified, null, 2)}\n` : describeVerification(verified));
          if (verified.releasesWithProblems > 0) {
            throw new CliError(`${verified.releasesWithProblems} kept release(s) list missing or corrupt assets`);
          }
          return;
        }
        const answer = await releaseClient(env, options, fetch).collectGarbage({
          keepPerTrack: options.keep,
          dryRun: !options.apply,
          ...(actor ? { actor: actor.slice(0, 255) } : {}),
          ...(runId ? { runId: runId.slice(0, 255) } : {}),
        });
        out.write(options.json ? `${JSON.stringify(answer, null, 2)}\n` : describeGc(answer));
        if (answer.failed.objects > 0) {
          throw new CliError(`${answer.failed.objects} object(s) could not be deleted; run again later`);
        }
      });
  };
}

export const registerGc = gcCommand();
