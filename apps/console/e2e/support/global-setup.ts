import { fileURLToPath } from 'node:url';
import { viteBuild } from '../../../../test/support/browser/vite-build.js';

/** Builds the console from the current sources (as `npm ci` does): the servers serve apps/console/dist. */
export default async function globalSetup(): Promise<void> {
  viteBuild(fileURLToPath(new URL('../..', import.meta.url)));
}
