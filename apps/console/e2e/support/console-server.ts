/**
 * One instance of the server the console's browser tests drive: the real app (OTA area only) on an
 * ephemeral port over the PostgreSQL database in DATABASE_URL. Instances given the same DATA_DIR
 * share the development signing key, release token and local objects, as a scaled-out deployment
 * shares its configuration. With FERRY_E2E_TOKENS=1 it also creates a viewer, a releaser and an admin
 * operator token. Prints one JSON line, then serves until SIGTERM.
 */
import pino from 'pino';
import { buildApp } from '../../../../packages/server/src/app.js';
import { OperatorTokenStore } from '../../../../packages/server/src/auth/operator-token-store.js';
import { loadConfig } from '../../../../packages/server/src/config/config.js';
import { applyDevelopmentDefaults } from '../../../../packages/server/src/config/development-defaults.js';

const { config } = await applyDevelopmentDefaults(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    FERRY_AREAS: 'ota',
    DATA_DIR: process.env.DATA_DIR ?? '',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    DATABASE_POOL_SIZE: '3',
    LOG_LEVEL: 'info',
    // The console reads under the release-endpoint limit; a test clicks through many pages.
    RELEASE_RATE_LIMIT_PER_MINUTE: '100000',
  }),
);

// Logs go to stderr (the runner keeps them in a file); stdout carries only the address line.
const app = await buildApp({ config, logger: pino({ level: config.logLevel }, pino.destination(2)) });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const tokens: Record<string, string> = {};
if (process.env.FERRY_E2E_TOKENS === '1') {
  const store = new OperatorTokenStore(app.database.db);
  for (const [name, role] of [
    ['vera', 'viewer'],
    ['rita', 'releaser'],
    ['ada', 'admin'],
  ] as const) {
    tokens[role] = (await store.create({ name, role }, { actor: 'e2e' })).token;
  }
}

process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, releaseToken: config.releaseToken, tokens })}\n`,
);

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
