import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const consoleDir = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the console from the current sources (as `npm ci` does): the servers serve apps/console/dist. */
export default async function globalSetup(): Promise<void> {
  const vitePackage = createRequire(path.join(consoleDir, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: consoleDir, stdio: 'inherit' });
}
