/**
 * Runs from the root `prepare` script, so `npm ci && npm start` serves the funnel at `/`.
 * It never fails the install: without Vite (`npm ci --omit=dev`, where the deployment builds the
 * page itself with its VITE_CERT_AES_KEY) it skips, and a failed build is reported, not fatal:
 * the server then answers `/` with 503 WEB_NOT_BUILT and the browser tests rebuild and fail loudly.
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
  process.stdout.write('@ferry/web: vite is not installed (dev dependencies omitted); not building the page.\n');
  process.exit(0);
}
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write('@ferry/web: the page did not build; run `npm run build -w @ferry/web` to see why.\n');
}
