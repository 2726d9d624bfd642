import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

// Expo's config loader require()s a transpiled app.config and the ferry CLI imports the helpers:
// both must work on plain Node with no TypeScript loader.
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: packageRoot, encoding: 'utf8' }).trim();

describe('@ferry/expo/config on plain Node', () => {
  it('loads through require() (CommonJS, as a transpiled app.config does)', () => {
    const out = run([
      '-e',
      "console.log(require('@ferry/expo/config').runtimeVersionFor({ appVersion: '1.2.3', buildNumber: 4, isPrerelease: false }))",
    ]);
    expect(out).toBe('1.2.3(4)');
  });

  it('loads through import (ESM, as the CLI does)', () => {
    const out = run([
      '--input-type=module',
      '-e',
      "import { channelFor } from '@ferry/expo/config'; console.log(channelFor('canary'))",
    ]);
    expect(out).toBe('development');
  });

  it('gives import and require the same module instance', () => {
    const out = run([
      '--input-type=module',
      '-e',
      "import { createRequire } from 'node:module'; import * as esm from '@ferry/expo/config'; const cjs = createRequire(import.meta.url)('@ferry/expo/config'); console.log(esm.APP_ENV_TABLE === cjs.APP_ENV_TABLE)",
    ]);
    expect(out).toBe('true');
  });
});
