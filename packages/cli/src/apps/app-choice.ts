import { AppSlug, appOfUpdatesUrl } from '@ferry/contracts';
import { InvalidArgumentError, Option } from 'commander';
import { CliError } from '../cli-error.js';

type Env = Record<string, string | undefined>;

/** The environment variable that names the app, beside OTA_SERVER_URL and OTA_RELEASE_TOKEN. */
export const APP_ENV_VARIABLE = 'OTA_APP';

const slugMessage = (raw: string) => AppSlug.safeParse(raw).error?.issues[0]?.message;

/**
 * `--app <slug>`, as every command that talks to a Ferry server takes it. `defaults` says, for the
 * help, where the app comes from without it.
 */
export const appOption = (defaults = `$${APP_ENV_VARIABLE}, else the release token's own app`): Option =>
  new Option('--app <slug>', `the app on the Ferry server (default: ${defaults})`).argParser((raw: string) => {
    const problem = slugMessage(raw);
    if (problem) throw new InvalidArgumentError(problem);
    return raw;
  });

/** The help's default for commands that read the app config. */
export const APP_DEFAULT_WITH_CONFIG = `$${APP_ENV_VARIABLE}, else the app the app config's updates.url names`;

export interface AppSources {
  /** --app. */
  flag?: string;
  env: Env;
  /** The app config's updates.url, when the command evaluated it. */
  updatesUrl?: string;
}

/**
 * The app a command acts on: --app, else OTA_APP, else the one the app config's updates URL names.
 * Undefined when none says: the request carries no `ferry-app` header and the server acts on the
 * release token's own app (the default app for OTA_RELEASE_TOKEN), as before there were apps.
 *
 * A named app that differs from the config's is refused before any request: the builds of that
 * config ask the config's app for updates, so whatever the command did to the other app would
 * never reach them.
 */
export function chooseApp({ flag, env, updatesUrl }: AppSources): string | undefined {
  const fromEnv = env[APP_ENV_VARIABLE] || undefined;
  if (flag === undefined && fromEnv !== undefined) {
    const problem = slugMessage(fromEnv);
    if (problem) throw new CliError(`${APP_ENV_VARIABLE}=${JSON.stringify(fromEnv)} is not an app slug: ${problem}.`);
  }
  const named = flag ?? fromEnv;
  const configured = updatesUrl === undefined ? undefined : appOfUpdatesUrl(updatesUrl);
  if (named !== undefined && configured !== undefined && named !== configured) {
    const source = flag !== undefined ? `--app ${named}` : `${APP_ENV_VARIABLE}=${named}`;
    throw new CliError(
      `${source} names app '${named}', but the app config's updates.url (${updatesUrl}) is app '${configured}': ` +
        `its builds ask app '${configured}' for updates, so nothing done to app '${named}' would reach them. ` +
        `Drop ${flag !== undefined ? '--app' : APP_ENV_VARIABLE}, or point the app config at app '${named}' ` +
        `(updatesConfig(appEnv, { app: '${named}', … }) of @ferry/expo/config).`,
    );
  }
  return named ?? configured;
}
