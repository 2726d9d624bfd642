import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { AppName, AppSlug, type AppView, appManifestPath, DEFAULT_APP } from '@ferry/contracts';
import { SealedKeyUnreadable } from './apps/app-key-vault.js';
import { appKeyVaultOf } from './apps/app-registry.js';
import { type ImportedSigningKey, sealedSigningKey } from './apps/app-signing-material.js';
import { AppStore, appView } from './apps/app-store.js';
import { localActor, table, UsageError } from './command-output.js';
import { loadConfig } from './config/config.js';
import { applyDevelopmentDefaults } from './config/development-defaults.js';
import { DomainError } from './errors/domain-error.js';
import { announceAppChange } from './ota/manifest/postgres-release-notifications.js';
import { openMigratedDatabase } from './storage/database.js';

export const APPS_USAGE = `Usage:
  ferry-server apps create <slug> [--name <name>] [--key-file <pem> --certificate-file <pem> [--key-id <id>]] [--json]
  ferry-server apps list [--json]
  ferry-server apps archive <slug>
  ferry-server apps rotate-key <slug> [--key-file <pem> --certificate-file <pem> [--key-id <id>]]
  ferry-server apps token <slug> --name <name>
  ferry-server apps reseal

Apps on this server (docs/apps.md). Each app has its own updates URL (/api/apps/<slug>/manifest),
signing key and certificate, release tokens, tracks and operators. create prints the app's first
release token once (only its hash is kept) and the certificate its builds embed. Signing keys are
kept sealed with APP_KEYS_SECRET. reseal seals every key still under APP_KEYS_PREVIOUS_SECRET with
APP_KEYS_SECRET, all or nothing (docs/apps.md, "Rotating APP_KEYS_SECRET"). Uses the server's
configuration and applies pending migrations.
`;

const write = (text: string) => process.stdout.write(text);

const appTable = (apps: AppView[]): string =>
  table([
    ['SLUG', 'NAME', 'KEY ID', 'UPDATES PATH', 'CREATED', 'ARCHIVED'],
    ...apps.map((a) => [a.slug, a.name, a.keyId, a.manifestPath, a.createdAt, a.archivedAt ?? '-']),
  ]);

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h') {
    (command === undefined ? process.stderr : process.stdout).write(APPS_USAGE);
    return command === undefined ? 2 : 0;
  }
  let parsed: ReturnType<
    typeof parseArgs<{ options: Record<string, { type: 'string' | 'boolean' }>; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        'key-file': { type: 'string' },
        'certificate-file': { type: 'string' },
        'key-id': { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const [slugArg, ...extra] = parsed.positionals;
  if (command === 'list' || command === 'reseal') {
    if (parsed.positionals.length > 0) throw new UsageError(`${command} takes no app slug`);
  } else {
    if (slugArg === undefined || extra.length > 0) throw new UsageError(`${command} needs one app slug`);
    const slug = AppSlug.safeParse(slugArg);
    if (!slug.success) throw new UsageError(`${slugArg}: ${slug.error.issues[0]?.message}`);
  }
  const slug = slugArg!;
  const imported = (): ImportedSigningKey | undefined => {
    const keyFile = values['key-file'] as string | undefined;
    const certificateFile = values['certificate-file'] as string | undefined;
    if ((keyFile === undefined) !== (certificateFile === undefined))
      throw new UsageError('give --key-file and --certificate-file together');
    if (keyFile === undefined) return undefined;
    return {
      key: fs.readFileSync(keyFile, 'utf8'),
      certificate: fs.readFileSync(certificateFile!, 'utf8'),
      keyId: values['key-id'] as string | undefined,
    };
  };
  if (['archive', 'rotate-key', 'token'].includes(command) && slug === DEFAULT_APP) {
    throw new UsageError(
      "the default app's key and release token are the configured ones (OTA_SIGNING_KEY, OTA_RELEASE_TOKEN); it cannot be archived",
    );
  }
  if (!['create', 'list', 'archive', 'rotate-key', 'token', 'reseal'].includes(command))
    throw new UsageError(`unknown command ${command}`);
  if (command === 'token' && values.name === undefined) throw new UsageError('token needs --name <name>');

  let config = loadConfig();
  if (!config.production) config = (await applyDevelopmentDefaults(config)).config;
  const target = config.database.engine === 'postgres' ? { ...config.database, poolSize: 1 } : config.database;
  const database = await openMigratedDatabase(target);
  // Running instances on PostgreSQL hear of a change at once; on SQLite they read the row again
  // within seconds, and a new key when a track of the app next loads (docs/apps.md).
  // The change is stored either way: a notification that fails only delays it to the row's TTL.
  const announce = async (changed: string) => {
    if (config.database.engine !== 'postgres') return;
    await announceAppChange(database, changed).catch((error: unknown) => {
      process.stderr.write(
        `ferry-server apps: could not notify running instances (${(error as Error).message}); they read the app again within seconds\n`,
      );
    });
  };
  try {
    const store = new AppStore(database.db);
    const keyId = config.updates?.keyId ?? 'main';
    const vault = () => {
      const opened = config.updates && appKeyVaultOf(config.updates);
      if (!opened)
        throw new UsageError(
          'APP_KEYS_SECRET (or APP_KEYS_SECRET_PATH) must be set: app signing keys are sealed with it',
        );
      return opened;
    };
    switch (command) {
      case 'list': {
        const apps = (await store.list()).map((app) => appView(app, keyId));
        write(values.json ? `${JSON.stringify({ apps }, null, 2)}\n` : appTable(apps));
        return 0;
      }
      case 'create': {
        const named = AppName.safeParse(values.name ?? slug);
        if (!named.success) throw new UsageError(`--name: ${named.error.issues[0]?.message}`);
        const name = named.data;
        const key = await sealedSigningKey(vault(), slug, name, imported());
        const created = await store.create({ slug, name, ...key }, localActor());
        const answer = {
          app: appView(created.app, keyId),
          releaseToken: created.releaseToken,
          certificate: key.certificate,
        };
        if (values.json) write(`${JSON.stringify(answer, null, 2)}\n`);
        else
          write(
            `Created app ${slug} (${name}). Its builds ask for updates at <PUBLIC_URL>${appManifestPath(slug)}\n` +
              `(updatesConfig(appEnv, { …, app: '${slug}' }) of @ferry/expo/config; ferry init --app ${slug}).\n\n` +
              'Its release token, shown once (only its hash is kept); set it as OTA_RELEASE_TOKEN in its CI:\n' +
              `  ${created.releaseToken}\n\n` +
              `The code-signing certificate its builds embed (key id ${key.keyId}):\n${key.certificate}`,
          );
        return 0;
      }
      case 'archive': {
        const archived = await store.archive(slug, localActor());
        if (!archived) throw new UsageError(`there is no app ${slug}`);
        await announce(slug);
        write(`Archived app ${slug}: its devices are still served; nothing more can be published or changed.\n`);
        return 0;
      }
      case 'reseal': {
        const opened = vault();
        if (!config.updates?.appKeysPreviousSecret)
          process.stderr.write(
            'ferry-server apps: APP_KEYS_PREVIOUS_SECRET is not set: only keys already sealed with APP_KEYS_SECRET can be read\n',
          );
        const { resealed, current } = await store.reseal(opened, localActor());
        write(
          `Resealed ${resealed.length} app key(s) with APP_KEYS_SECRET${resealed.length ? ` (${resealed.join(', ')})` : ''}; ` +
            `${current} already were. APP_KEYS_PREVIOUS_SECRET can be removed once every instance runs with APP_KEYS_SECRET.\n`,
        );
        return 0;
      }
      case 'rotate-key': {
        const app = await store.find(slug);
        if (!app) throw new UsageError(`there is no app ${slug}`);
        const key = await sealedSigningKey(vault(), slug, app.name, imported());
        await store.rotateKey(slug, key, localActor());
        await announce(slug);
        write(
          `Rotated the signing key of app ${slug} (key id ${key.keyId}). Builds that embed the old certificate\n` +
            'reject updates signed with the new key: ship builds with this certificate before publishing again.\n' +
            `Running instances sign with it from their next read of the app (docs/apps.md).\n${key.certificate}`,
        );
        return 0;
      }
      default: {
        if (!(await store.find(slug))) throw new UsageError(`there is no app ${slug}`);
        const created = await store.createReleaseToken(slug, values.name as string, localActor());
        write(
          `Created release token ${values.name} of app ${slug}, id ${created.id}; shown once:\n  ${created.token}\n`,
        );
        return 0;
      }
    }
  } finally {
    await database.close();
  }
}

/** `ferry-server apps …`: returns the exit code. */
export async function appsCommand(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`ferry-server apps: ${error.message}\n\n${APPS_USAGE}`);
      return 2;
    }
    if (error instanceof SealedKeyUnreadable) {
      process.stderr.write(`ferry-server apps: ${error.message}; nothing was changed\n`);
      return 1;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`ferry-server apps: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
