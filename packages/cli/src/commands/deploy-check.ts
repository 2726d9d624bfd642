import fs from 'node:fs/promises';
import path from 'node:path';
import { isPrereleaseRuntimeVersion, PLATFORMS } from '@ferry/contracts';
import type { Command } from 'commander';
import { nativeTagName } from '../bump/bump-arithmetic.js';
import { locateReleaseControlFile } from '../bump/locate-release-control-file.js';
import { ReleaseControlFile } from '../bump/release-control-file.js';
import { CliError } from '../cli-error.js';
import { createExpoProjectInspector } from '../gate/expo-project-inspector.js';
import { annotate, setOutputs } from '../gate/github-actions.js';
import type { InspectorFactory } from '../gate/project-inspector.js';
import { git } from '../native-affected/git.js';

interface DeployCheckOptions {
  project?: string;
  file?: string;
  requireClean?: boolean;
}

export interface DeployCheckDependencies {
  inspectorFor: InspectorFactory;
}

/**
 * `ferry deploy-check`: the store deploy's refusal (spec, Versioning rule 5). It resolves each
 * platform's runtimeVersion as the publisher does and fails when one ends in `-pre`, because a
 * pre-release binary can never be turned into a release by OTA. On success it prints (and, in
 * Actions, outputs as `tag`) the store tag `native-v<APP_VERSION>+<ANDROID_VERSION_CODE>`.
 */
export function deployCheckCommand(
  dependencies: DeployCheckDependencies = { inspectorFor: createExpoProjectInspector },
) {
  return (program: Command): void => {
    program
      .command('deploy-check')
      .description('Refuse a store deploy of a pre-release (runtimeVersion ending in -pre); print the store tag')
      .option('--project <dir>', 'the app directory (default: the current directory)')
      .option('--file <path>', 'the release control file (default: release.config.js, release.js, … in the project)')
      .option(
        '--require-clean',
        'also refuse uncommitted changes to tracked files (deploys come from the merged commit)',
      )
      .action(async (options: DeployCheckOptions) => {
        const projectRoot = path.resolve(options.project ?? process.cwd());
        const write = (line: string) => process.stdout.write(`${line}\n`);
        if (options.requireClean) await refuseUncommittedChanges(projectRoot);

        const inspector = dependencies.inspectorFor(projectRoot);
        const prerelease: string[] = [];
        for (const platform of PLATFORMS) {
          let runtimeVersion: string;
          try {
            runtimeVersion = await inspector.runtimeVersion(platform);
          } catch (error) {
            throw refusal(
              `cannot resolve the ${platform} runtimeVersion: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          write(`${platform}: runtimeVersion ${runtimeVersion}`);
          if (isPrereleaseRuntimeVersion(runtimeVersion)) prerelease.push(`${platform} ${runtimeVersion}`);
        }
        if (prerelease.length > 0) {
          throw refusal(
            `this is a pre-release (${prerelease.join(', ')}): IS_PRERELEASE is true. A '-pre' runtimeVersion cannot ` +
              'be removed by OTA, so it must never reach a store. Set IS_PRERELEASE to false, rebuild, then deploy.',
          );
        }
        const file = await locateReleaseControlFile(projectRoot, options.file);
        const values = ReleaseControlFile.parse(path.basename(file), await fs.readFile(file, 'utf8')).values();
        const tag = nativeTagName(values.APP_VERSION, values.ANDROID_VERSION_CODE);
        write(`deploy allowed; after a successful store deploy tag the commit ${tag}`);
        setOutputs({
          tag,
          'app-version': values.APP_VERSION,
          'android-version-code': String(values.ANDROID_VERSION_CODE),
        });
      });
  };
}

function refusal(message: string): CliError {
  annotate.error(message, 'Store deploy refused');
  return new CliError(`store deploy refused: ${message}`, 1);
}

async function refuseUncommittedChanges(projectRoot: string): Promise<void> {
  const status = (await git(projectRoot, ['status', '--porcelain', '--untracked-files=no'])).trim();
  if (status !== '') {
    throw refusal(`tracked files have uncommitted changes; deploy only from the merged commit:\n${status}`);
  }
}

export const registerDeployCheck = deployCheckCommand();
