/**
 * Runs from the root `prepare` script, so `npm ci && npm start` serves the console at `/console/`.
 * It never fails the install: without Vite (`npm ci --omit=dev`) it skips, and a failed build is
 * reported, not fatal: the server then answers `/console/` with 503 CONSOLE_NOT_BUILT.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let vite;
try {
  vite = path.join(
    path.dirname(createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
} catch {
  process.stdout.write('@ferry/console: vite is not installed (dev dependencies omitted); not building the console.\n');
  process.exit(0);
}
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write(
    '@ferry/console: the console did not build; run `npm run build -w @ferry/console` to see why.\n',
  );
}
