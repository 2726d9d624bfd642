import path from 'node:path';
import type { Command } from 'commander';
import { APP_DEFAULT_WITH_CONFIG, appOption } from '../apps/app-choice.js';
import { evaluateCodeSigning } from '../code-signing/app-code-signing.js';
import { type DoctorContext, gitIgnores } from '../doctor/doctor-checks.js';
import { runDoctor } from '../doctor/run-doctor.js';
import { loadFingerprintConfig, resolveAppFingerprintTool } from '../fingerprint/app-fingerprint.js';
import type { RetryPolicy } from '../http/retry.js';
import { evaluateAppConfig } from '../publish/app-config.js';

interface DoctorOptions {
  project?: string;
  server?: string;
  app?: string;
  dist?: string;
}

/** The world `ferry doctor` talks to; tests swap the Expo-dependent parts. */
export type DoctorDependencies = Omit<DoctorContext, 'projectRoot'> & {
  out: { write(text: string): unknown };
  retry?: RetryPolicy;
};

export const defaultDoctorDependencies = (): DoctorDependencies => ({
  env: process.env,
  out: process.stdout,
  evaluateAppConfig,
  codeSigning: evaluateCodeSigning,
  resolveFingerprintTool: resolveAppFingerprintTool,
  loadFingerprintConfig,
  gitIgnores,
});

/** `ferry doctor`: checks an app and its server together (docs/add-to-an-app.md). */
export function doctorCommand(dependencies: () => DoctorDependencies = defaultDoctorDependencies) {
  return (program: Command): void => {
    program
      .command('doctor')
      .description(
        'Check an app and its Ferry server together: config, expo-updates, certificate, manifest answers, token, export',
      )
      .option('--project <dir>', 'the Expo app (default: the current directory)')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL, else the one the app config names)')
      .addOption(appOption(APP_DEFAULT_WITH_CONFIG))
      .option('--dist <dir>', 'an `expo export` folder to check (default: <project>/dist when it exists)')
      .action(async (options: DoctorOptions) => {
        const { out, retry, ...context } = dependencies();
        const projectRoot = path.resolve(options.project ?? process.cwd());
        await runDoctor(
          {
            server: options.server,
            app: options.app,
            distDir: options.dist === undefined ? path.join(projectRoot, 'dist') : path.resolve(options.dist),
            distGiven: options.dist !== undefined,
          },
          { ...context, projectRoot },
          { out, retry },
        );
      });
  };
}

export const registerDoctor = doctorCommand();
