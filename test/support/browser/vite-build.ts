import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Builds a suite's page with Vite from the current sources (as `npm ci` does), so a browser test
 * never loads a dist/ older than the code it tests. `configFile` when it is not `dir`'s vite.config.ts;
 * `outDir` to build somewhere other than the app's dist/ (a test that must not race a browser suite).
 */
export function viteBuild(dir: string, configFile?: string, options: { outDir?: string } = {}): void {
  const vitePackage = createRequire(path.join(dir, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin', 'vite.js');
  const args = [
    ...(configFile ? ['-c', configFile] : []),
    ...(options.outDir ? ['--outDir', options.outDir, '--emptyOutDir'] : []),
  ];
  execFileSync(process.execPath, [vite, 'build', ...args, '--logLevel', 'warn'], {
    cwd: dir,
    stdio: 'inherit',
  });
}
