import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Builds a suite's page with Vite from the current sources (as `npm ci` does), so a browser test
 * never loads a dist/ older than the code it tests. `configFile` when it is not `dir`'s vite.config.ts.
 */
export function viteBuild(dir: string, configFile?: string): void {
  const vitePackage = createRequire(path.join(dir, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', ...(configFile ? ['-c', configFile] : []), '--logLevel', 'warn'], {
    cwd: dir,
    stdio: 'inherit',
  });
}
