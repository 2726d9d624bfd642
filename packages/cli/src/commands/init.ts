import path from 'node:path';
import type { Command } from 'commander';
import { appOption, chooseApp } from '../apps/app-choice.js';
import { askOnTerminal, type InitRun, runInit } from '../init/run-init.js';
import { readWorkflowTemplates } from '../init/workflow-templates.js';
import { createCodeSigningPair } from '../keys/code-signing-keys.js';
import { keyIdOption } from './keys.js';

interface InitCommandOptions {
  project?: string;
  server?: string;
  app?: string;
  developmentServer?: string;
  certificate?: string;
  keyid: string;
  banner?: boolean;
  workflows: boolean;
  yes?: boolean;
}

/** The world `ferry init` talks to; tests pass their own. */
export interface InitDependencies extends Omit<InitRun, 'yes'> {
  env: Record<string, string | undefined>;
  workflowTemplates: () => Map<string, string>;
}

export const defaultInitDependencies = (): InitDependencies => ({
  out: process.stdout,
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  ask: askOnTerminal,
  env: process.env,
  workflowTemplates: () => readWorkflowTemplates(),
});

/** `ferry init`: adds Ferry to an existing Expo app (docs/add-to-an-app.md). */
export function initCommand(dependencies: () => InitDependencies = defaultInitDependencies) {
  return (program: Command): void => {
    program
      .command('init')
      .description(
        'Add Ferry to an existing Expo app: app config, release values, fingerprint preset, certificate, .gitignore, CI workflows; shows a diff and writes only with consent',
      )
      .option('--project <dir>', 'the Expo app (default: the current directory)')
      .option('--server <url>', 'the Ferry server builds ask for updates: its API address (default: $OTA_SERVER_URL)')
      .option('--development-server <url>', 'the server of the development channel (default: --server)')
      .addOption(appOption('$OTA_APP, else the default app; builds of an app ask /api/apps/<slug>/manifest'))
      .option('--certificate <file>', 'an existing code-signing certificate to embed (default: generate a new one)')
      .option('--keyid <id>', 'the key id of the server’s signatures (OTA_SIGNING_KEY_ID)', keyIdOption, 'main')
      .option('--banner', 'add the update-policy hook and banner of @ferry/expo to the root layout')
      .option('--no-workflows', 'do not write the CI workflow templates under .github/workflows')
      .option('--yes', 'write without asking (CI)')
      .action(async (options: InitCommandOptions) => {
        const deps = dependencies();
        await runInit(
          {
            projectRoot: path.resolve(options.project ?? process.cwd()),
            server: options.server ?? (deps.env.OTA_SERVER_URL || undefined),
            developmentServer: options.developmentServer,
            app: chooseApp({ flag: options.app, env: deps.env }),
            certificate: options.certificate,
            keyId: options.keyid,
            banner: options.banner === true,
            workflows: options.workflows,
            workflowTemplates: options.workflows ? deps.workflowTemplates() : new Map(),
            generateCertificate: () =>
              createCodeSigningPair({ commonName: 'Ferry OTA code signing', validityYears: 10 }),
          },
          { ...deps, yes: options.yes === true },
        );
      });
  };
}

export const registerInit = initCommand();
