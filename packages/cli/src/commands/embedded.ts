import path from 'node:path';
import { PLATFORMS, type Platform, RuntimeVersion } from '@ferry/contracts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import { type EmbeddedUploadDependencies, uploadEmbedded } from '../embedded/upload-embedded.js';
import { evaluateAppConfig } from '../publish/app-config.js';

interface UploadOptions {
  manifest?: string;
  updateId?: string;
  bundle?: string;
  platform?: Platform;
  runtimeVersion?: string;
  project?: string;
  server?: string;
  app?: string;
  json?: boolean;
}

/** --runtime-version is checked as the server checks it, before any file is read. */
const runtimeVersion = (raw: string): string => {
  const checked = RuntimeVersion.safeParse(raw);
  if (!checked.success) throw new InvalidArgumentError(checked.error.issues[0]?.message ?? 'not a runtimeVersion');
  return checked.data;
};

/**
 * `ferry embedded upload`: after a native build, registers the update it embeds (app.manifest's
 * id and the launch bundle) so releases on its runtimeVersion get a bundle patch from it: right
 * after a store release every device runs that bundle. Release token, like `ferry publish`.
 */
export function embeddedCommand(
  deps: () => EmbeddedUploadDependencies = () => ({ env: process.env, out: process.stdout, evaluateAppConfig }),
) {
  return (program: Command): void => {
    const embedded = program
      .command('embedded')
      .description("A native build's embedded update: register it so releases get bundle patches from it");
    embedded
      .command('upload')
      .description(
        "Register a native build's embedded update (its id and launch bundle) for its platform and runtimeVersion",
      )
      .argument('[build]', 'the build product: an iOS .app, .xcarchive or .ipa, or an Android .apk or .aab')
      .option('--manifest <file>', "instead of a build product: the build's app.manifest (its id is the update id)")
      .option('--update-id <uuid>', 'instead of a build product: the embedded update id itself')
      .option('--bundle <file>', 'with --manifest or --update-id: the launch bundle the build embeds')
      .addOption(
        new Option(
          '--platform <platform>',
          'the platform (required with --bundle; a build product names its own)',
        ).choices(PLATFORMS),
      )
      .option(
        '--runtime-version <version>',
        "the build's runtimeVersion (default: the app config's, resolved as `ferry publish` does)",
        runtimeVersion,
      )
      .option('--project <dir>', 'the Expo app whose config gives the runtimeVersion (default: the current directory)')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .option('--json', 'print the server answer as JSON, with created (true: registered now; false: it already was)')
      .action(async (build: string | undefined, options: UploadOptions) => {
        await uploadEmbedded(
          {
            build,
            manifest: options.manifest,
            updateId: options.updateId,
            bundle: options.bundle,
            platform: options.platform,
            runtimeVersion: options.runtimeVersion,
            projectRoot: path.resolve(options.project ?? process.cwd()),
            server: options.server,
            app: options.app,
            json: options.json === true,
          },
          deps(),
        );
      });
  };
}

export const registerEmbedded = embeddedCommand();
