import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CertificateVendor } from '@ferry/contracts';
import type { CertificateServerAddress } from './certificate-server.js';
import { startServerProcess } from './server-process.js';

const repoDir = fileURLToPath(new URL('../../..', import.meta.url));
const CERTIFICATE_SERVER = fileURLToPath(new URL('./certificate-server.ts', import.meta.url));

/** Where the global setup hands the certificate server's addresses to the tests (their fixtures). */
export const CERTIFICATE_ENV = {
  url: 'FERRY_E2E_URL',
  operatorToken: 'FERRY_E2E_OPERATOR_TOKEN',
  simulator: (vendor: CertificateVendor) => `FERRY_E2E_${vendor}_URL`,
  serverLog: 'FERRY_E2E_SERVER_LOG',
} as const;

/**
 * For a certificate suite's global setup: starts certificate-server.ts (its log in the suite's
 * test-results/e2e-server.log) and hands its addresses to the tests through the environment.
 * Resolves with the teardown, which stops it.
 */
export async function startCertificateServer(suiteDir: string): Promise<() => Promise<void>> {
  const logFile = path.join(suiteDir, 'test-results', 'e2e-server.log');
  const server = await startServerProcess<CertificateServerAddress>(CERTIFICATE_SERVER, { cwd: repoDir, logFile });
  process.env[CERTIFICATE_ENV.url] = server.address.url;
  process.env[CERTIFICATE_ENV.operatorToken] = server.address.operatorToken;
  for (const vendor of ['VENDOR_A', 'VENDOR_B'] as const) {
    process.env[CERTIFICATE_ENV.simulator(vendor)] = server.address.simulators[vendor];
  }
  process.env[CERTIFICATE_ENV.serverLog] = logFile;
  return server.stop;
}
