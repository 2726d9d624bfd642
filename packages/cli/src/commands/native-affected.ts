import path from 'node:path';
import type { Command } from 'commander';
import { setOutputs } from '../gate/github-actions.js';
import { checkNativeAffected } from '../native-affected/native-affected.js';

interface NativeAffectedOptions {
  base: string;
  head: string;
  project?: string;
}

/**
 * `ferry native-affected --base <ref> [--head <ref>]`: prints `affected` or `not-affected` on
 * stdout (exit 0 for both) and the reason on stderr. In GitHub Actions it also sets the step
 * outputs `affected`, `app-changed` and `result`.
 */
export function registerNativeAffected(program: Command): void {
  program
    .command('native-affected')
    .description(
      'Say whether a change may alter the native fingerprint (affected) or is JavaScript-only (not-affected)',
    )
    .requiredOption('--base <ref>', 'the commit to compare with (e.g. origin/main or the push event’s before SHA)')
    .option('--head <ref>', 'the commit to check', 'HEAD')
    .option('--project <dir>', 'the app directory (default: the current directory)')
    .action(async (options: NativeAffectedOptions) => {
      const result = await checkNativeAffected({
        projectRoot: path.resolve(options.project ?? process.cwd()),
        base: options.base,
        head: options.head,
      });
      const verdict = result.affected ? 'affected' : 'not-affected';
      process.stdout.write(`${verdict}\n`);
      for (const reason of result.reasons) process.stderr.write(`  ${reason}\n`);
      setOutputs({
        result: verdict,
        affected: String(result.affected),
        'app-changed': String(result.appChanged),
      });
    });
}
