import { fileURLToPath } from 'node:url';
import { startCertificateServer } from '../../../../test/support/browser/certificate-setup.js';
import { viteBuild } from '../../../../test/support/browser/vite-build.js';

const webDir = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the web app from the current sources and starts the certificate server. Returns the teardown. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  viteBuild(webDir);
  return startCertificateServer(webDir);
}
