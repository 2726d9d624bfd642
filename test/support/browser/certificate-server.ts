/**
 * The server the certificate browser suites drive (the web funnel and the native screens through
 * react-native-web): the real app on an ephemeral port, SQLite in a temp dir, both vendor
 * simulators in-process and waiting for the control endpoint to approve ('never'), the development
 * routes on. Prints one JSON line with its addresses (CertificateServerAddress), then serves until
 * SIGTERM. Started by certificate-setup.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../../packages/server/src/app.js';
import { loadConfig } from '../../../packages/server/src/config/config.js';
import { applyDevelopmentDefaults } from '../../../packages/server/src/config/development-defaults.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-e2e-'));
const { config } = await applyDevelopmentDefaults(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // debug: the suite checks that even the most verbose log carries no identity number.
    LOG_LEVEL: 'debug',
    VENDOR_SIM_APPROVAL_DELAY_MS: 'never',
    CERT_RATE_LIMIT_PER_MINUTE: '10000',
  }),
);

// Logs go to stderr (the runner keeps them in a file); stdout carries only the address line.
const app = await buildApp({ config, logger: pino({ level: config.logLevel }, pino.destination(2)) });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

/** The line this server prints on stdout once it listens (both simulators run here). */
export interface CertificateServerAddress {
  url: string;
  operatorToken: string;
  simulators: Record<'VENDOR_A' | 'VENDOR_B', string>;
}

process.stdout.write(
  `${JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    operatorToken: config.releaseToken,
    simulators: {
      VENDOR_A: app.certificates.simulators.VENDOR_A?.url,
      VENDOR_B: app.certificates.simulators.VENDOR_B?.url,
    },
  })}\n`,
);

const stop = async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
