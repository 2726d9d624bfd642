import { CliError } from './cli-error.js';

type DevTools = typeof import('@ferry/dev-tools');
type DevToken = typeof import('@ferry/dev-tools/token');

const missing = (command: string) =>
  new CliError(
    `ferry ${command} needs @ferry/dev-tools, which is for development only and not installed here: ` +
      'npm install --save-dev @ferry/dev-tools',
  );

const isModuleNotFound = (error: unknown): boolean =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';

// @ferry/dev-tools is not a dependency: the simulators need an HTTP server (Fastify), which an
// app's CI, which only publishes, should not install. A team adds it next to the CLI when it wants
// these commands (not a peer either: changesets would turn every minor release into a major one).
/** Imports @ferry/dev-tools (or one of its entry points), or says how to install it. */
async function load<T>(command: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    if (isModuleNotFound(error)) throw missing(command);
    throw error;
  }
}

export const loadSimulators = (command: string): Promise<DevTools> => load(command, () => import('@ferry/dev-tools'));

/** The token signer alone (`/token`): no HTTP server is loaded for `ferry dev-token`. */
export const loadTokenSigner = (command: string): Promise<DevToken> =>
  load(command, () => import('@ferry/dev-tools/token'));
