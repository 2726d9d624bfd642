#!/usr/bin/env node
// `npm run build`, also run by `npm ci` (the root `prepare` script): compiles every publishable
// package to dist/ (tsc -b, incremental) and builds the web funnel and the release console. Without TypeScript installed
// (`npm ci --omit=dev`) there is nothing to compile with: it says so and leaves the build as it is.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let tsc;
try {
  tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  process.stdout.write('ferry: TypeScript is not installed (dev dependencies omitted); not building.\n');
  process.exit(0);
}
const compiled = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
const web = spawnSync(process.execPath, [path.join(root, 'apps/web/scripts/build-on-install.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (web.status !== 0) process.exit(web.status ?? 1);
const consoleApp = spawnSync(process.execPath, [path.join(root, 'apps/console/scripts/build-on-install.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(consoleApp.status ?? 1);
