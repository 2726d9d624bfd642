import path from 'node:path';
import {
  CHANNELS,
  type Channel,
  PLATFORMS,
  type Platform,
  RELEASE_MESSAGE_MAX_LENGTH,
  ReleaseMetadataInput,
} from '@ferry/contracts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { APP_DEFAULT_WITH_CONFIG, appOption } from '../apps/app-choice.js';
import { evaluateCodeSigning } from '../code-signing/app-code-signing.js';
import { computeFingerprint } from '../fingerprint/app-fingerprint.js';
import { fingerprintsOnce } from '../fingerprint/fingerprint-reuse.js';
import { evaluateAppConfig } from '../publish/app-config.js';
import { DEFAULT_UPLOAD_CONCURRENCY } from '../publish/asset-uploader.js';
import { gitReader } from '../publish/ci-metadata.js';
import { runExpoExport } from '../publish/expo-export.js';
import { type PublishDependencies, publishUpdate } from '../publish/publisher.js';
import { parseFailureRate, parseMinDevices, parsePercent, rolloutRequest } from './rollout-options.js';

interface PublishOptions {
  channel: Channel;
  platform: Platform | 'all';
  project?: string;
  dist?: string;
  server?: string;
  app?: string;
  concurrency: number;
  message?: string;
  rollout?: number;
  haltOnFailureRate?: number;
  haltMinDevices?: number;
}

/** The real world; tests pass fakes for the Expo-dependent parts. */
export const defaultPublishDependencies = (projectRoot: string): PublishDependencies => ({
  env: process.env,
  out: process.stdout,
  exporter: runExpoExport,
  evaluateAppConfig,
  codeSigning: evaluateCodeSigning,
  // Once per platform; with FERRY_FINGERPRINT_CACHE, the one `ferry gate` or `ferry bump` computed in this job.
  fingerprint: fingerprintsOnce({ env: process.env, compute: computeFingerprint, command: 'ferry publish' }),
  git: gitReader(projectRoot),
});

const concurrency = (raw: string): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 64)
    throw new InvalidArgumentError('a whole number from 1 to 64');
  return value;
};

/** --message is checked as the server checks it, before anything is exported or uploaded. */
const releaseMessage = (raw: string): string => {
  const checked = ReleaseMetadataInput.shape.message.safeParse(raw);
  if (!checked.success) {
    throw new InvalidArgumentError(
      `one line of at most ${RELEASE_MESSAGE_MAX_LENGTH} characters, without control characters`,
    );
  }
  return raw;
};

/**
 * `ferry publish`: CI only. Exit codes: 0 published; 2 refused by the native-change guard (the
 * server's remedy is printed); 1 any other error.
 */
export function publishCommand(
  dependencies: (projectRoot: string) => PublishDependencies = defaultPublishDependencies,
) {
  return (program: Command): void => {
    program
      .command('publish')
      .description(
        'Publish an OTA update from CI: export, upload the missing assets, register the release per platform',
      )
      .addOption(new Option('--channel <channel>', 'the channel to publish to').choices(CHANNELS).makeOptionMandatory())
      .addOption(
        new Option('--platform <platform>', 'one platform, or both').choices([...PLATFORMS, 'all']).default('all'),
      )
      .option('--project <dir>', 'the Expo app directory (default: the current directory)')
      .option('--dist <dir>', 'an existing `expo export` folder; skips the export')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption(APP_DEFAULT_WITH_CONFIG))
      .option('--concurrency <n>', 'parallel uploads', concurrency, DEFAULT_UPLOAD_CONCURRENCY)
      .option(
        '--message <text>',
        'what this release changes, shown by `ferry releases` (default: the commit subject; "" for none)',
        releaseMessage,
      )
      .option('--rollout <percent>', 'publish to this share of devices (1–100); see `ferry rollout`', parsePercent)
      .option(
        '--halt-on-failure-rate <rate>',
        'with --rollout: halt it when this share of the devices that got it report it failed, e.g. 2%',
        parseFailureRate,
      )
      .option(
        '--halt-min-devices <n>',
        'with --halt-on-failure-rate: devices needed before it may halt (default 100)',
        parseMinDevices,
      )
      .action(async (options: PublishOptions) => {
        const projectRoot = path.resolve(options.project ?? process.cwd());
        const rollout = rolloutRequest(options);
        await publishUpdate(
          {
            channel: options.channel,
            platforms: options.platform === 'all' ? [...PLATFORMS] : [options.platform],
            projectRoot,
            distDir: options.dist === undefined ? undefined : path.resolve(options.dist),
            server: options.server,
            app: options.app,
            concurrency: options.concurrency,
            message: options.message,
            rollout,
          },
          dependencies(projectRoot),
        );
      });
  };
}

export const registerPublish = publishCommand();
