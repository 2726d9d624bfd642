import path from 'node:path';
import { Argument, type Command, Option } from 'commander';
import { APP_DEFAULT_WITH_CONFIG, appOption } from '../apps/app-choice.js';
import { BUMP_KINDS, type BumpKind } from '../bump/bump-arithmetic.js';
import { runBump } from '../bump/run-bump.js';
import { expoProjectInspector } from '../gate/expo-project-inspector.js';
import { setOutputs } from '../gate/github-actions.js';
import type { InspectorFactory } from '../gate/project-inspector.js';

interface BumpOptions {
  ifDrift?: boolean;
  file?: string;
  server?: string;
  app?: string;
  project?: string;
}

export interface BumpDependencies {
  inspectorFor: InspectorFactory;
  fetch?: typeof fetch;
}

/**
 * `ferry bump build|patch|minor|major [--if-drift]`: edits the release control file in place and
 * prints each old and new value. In GitHub Actions it sets the outputs `bumped`, `app-version`,
 * `android-version-code` and `ios-build-number`.
 */
export function bumpCommand(dependencies: BumpDependencies = { inspectorFor: expoProjectInspector('ferry bump') }) {
  return (program: Command): void => {
    program
      .command('bump')
      .description('Raise the build numbers (build) or APP_VERSION (patch, minor, major) in the release control file')
      .addArgument(
        new Argument(
          '<kind>',
          'build: iOS build number + 1, Android version code above every native-v tag; patch|minor|major: APP_VERSION',
        ).choices(BUMP_KINDS),
      )
      .option(
        '--if-drift',
        'bump only when the fingerprint differs from the production baseline of the current runtimeVersion',
      )
      .option('--file <path>', 'the release control file (default: release.config.js, release.js, … in the project)')
      .addOption(new Option('--server <url>', 'the Ferry server for --if-drift (default: $OTA_SERVER_URL)'))
      .addOption(appOption(APP_DEFAULT_WITH_CONFIG))
      .option('--project <dir>', 'the app directory (default: the current directory)')
      .action(async (kind: BumpKind, options: BumpOptions) => {
        const projectRoot = path.resolve(options.project ?? process.cwd());
        const result = await runBump({
          projectRoot,
          kind,
          file: options.file,
          ifDrift: options.ifDrift === true,
          serverUrl: options.server ?? (process.env.OTA_SERVER_URL || undefined),
          app: { flag: options.app, env: process.env },
          inspector: dependencies.inspectorFor(projectRoot),
          fetch: dependencies.fetch,
        });
        const write = (line: string) => process.stdout.write(`${line}\n`);
        for (const note of result.notes) write(note);
        const relative = path.relative(process.cwd(), result.file) || result.file;
        if (!result.bumped) {
          write(`no drift: ${relative} unchanged`);
        } else {
          for (const change of result.changes) write(`${change.name}: ${change.from} → ${change.to}`);
          write(`updated ${relative}`);
        }
        const value = (name: string) => result.changes.find((change) => change.name === name)?.to;
        setOutputs({
          bumped: String(result.bumped),
          ...(value('APP_VERSION') !== undefined ? { 'app-version': String(value('APP_VERSION')) } : {}),
          ...(value('ANDROID_VERSION_CODE') !== undefined
            ? { 'android-version-code': String(value('ANDROID_VERSION_CODE')) }
            : {}),
          ...(value('IOS_BUILD_NUMBER') !== undefined ? { 'ios-build-number': String(value('IOS_BUILD_NUMBER')) } : {}),
        });
      });
  };
}

export const registerBump = bumpCommand();
