import path from 'node:path';
import { PLATFORMS, type Platform } from '@ferry/contracts';
import { type Command, Option } from 'commander';
import { APP_DEFAULT_WITH_CONFIG, appOption } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import { expoProjectInspector } from '../gate/expo-project-inspector.js';
import { reportGate } from '../gate/gate-report.js';
import { ALLOW_UNREACHABLE_FLAG } from '../gate/gate-verdict.js';
import { setOutputs } from '../gate/github-actions.js';
import type { InspectorFactory } from '../gate/project-inspector.js';
import { runGate } from '../gate/run-gate.js';

interface GateOptions {
  base: string;
  server?: string;
  app?: string;
  project?: string;
  platform: Platform | 'all';
  allowUnreachable?: boolean;
}

export interface GateDependencies {
  inspectorFor: InspectorFactory;
  fetch?: typeof fetch;
}

/**
 * `ferry gate --base <ref>`: the pre-merge gate (spec, "Pre-merge gate"). Publishes nothing; exits
 * 1 when a platform would be refused with 409 by the production guard, and when it cannot decide
 * (gate-verdict.ts: a baseline it cannot read, unless --allow-unreachable). It checks the checked
 * out, installed commit (HEAD): runtimeVersion and fingerprint come from the working tree, so
 * there is no --head to disagree with it.
 */
export function gateCommand(dependencies: GateDependencies = { inspectorFor: expoProjectInspector('ferry gate') }) {
  return (program: Command): void => {
    program
      .command('gate')
      .description(
        'Pre-merge gate: block when the native fingerprint changed on an unchanged production runtimeVersion',
      )
      .requiredOption('--base <ref>', 'the branch the change merges into (e.g. origin/main)')
      .option('--server <url>', 'the Ferry server that holds the production baseline (default: $OTA_SERVER_URL)')
      .addOption(appOption(APP_DEFAULT_WITH_CONFIG))
      .option('--project <dir>', 'the app directory (default: the current directory)')
      .addOption(new Option('--platform <platform>', 'one platform only').choices([...PLATFORMS, 'all']).default('all'))
      .option(
        ALLOW_UNREACHABLE_FLAG,
        "pass with a warning when the production baseline cannot be read (no server, network failure, an answer that is not the registry's); by default the gate blocks",
      )
      .action(async (options: GateOptions) => {
        const projectRoot = path.resolve(options.project ?? process.cwd());
        const result = await runGate({
          projectRoot,
          base: options.base,
          platforms: options.platform === 'all' ? [...PLATFORMS] : [options.platform],
          serverUrl: options.server ?? (process.env.OTA_SERVER_URL || undefined),
          app: { flag: options.app, env: process.env },
          inspector: dependencies.inspectorFor(projectRoot),
          allowUnreachable: options.allowUnreachable === true,
          fetch: dependencies.fetch,
        });
        await reportGate(result, (line) => process.stdout.write(`${line}\n`));
        setOutputs({ blocked: String(result.blocked) });
        if (result.blocked) throw new CliError('the gate blocks this change (see the errors above)', 1);
      });
  };
}

export const registerGate = gateCommand();
