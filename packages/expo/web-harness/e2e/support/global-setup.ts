import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCertificateServer } from '../../../../../test/support/browser/certificate-setup.js';
import { viteBuild } from '../../../../../test/support/browser/vite-build.js';

const harnessDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds the harness page from the current sources and starts the certificate server (the one the
 * web funnel's tests drive). Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  viteBuild(harnessDir, path.join(harnessDir, 'vite.config.ts'));
  return startCertificateServer(harnessDir);
}
