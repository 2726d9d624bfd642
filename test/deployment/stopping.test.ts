/**
 * Stopping is stopping, in this checkout: `npm start` and `npx ferry-server` (the workspace's bin)
 * are started as an operator starts them, the signal goes to the process the operator started (or,
 * for Ctrl-C, to its whole process group, as a terminal sends it), and the test waits until nothing
 * accepts connections on the port and no process of the group is left. The installed package's
 * ways (npx, npm start, node_modules/.bin, the image's command) are in server-bundle.test.ts.
 *
 * Needs the built server (`npm run build`; `npm ci` builds it), as `npm start` does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/local-registry.js';
import { killAll } from '../e2e/support/sandbox.js';
import { startAndStop } from '../support/stopping.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-stopping-'));

beforeAll(() => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'packages/server/dist/main.js'))) {
    throw new Error('packages/server/dist is missing: run `npm run build` first');
  }
});
afterAll(() => {
  killAll();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('stopping the server started from this checkout', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('npm start stops on %s sent to npm, and npm exits 0', async (signal) => {
    const { output, exitCode } = await startAndStop('npm', ['start'], {
      cwd: REPO_ROOT,
      work,
      signal,
      target: 'process',
    });
    // npm runs `exec node …`: the server is npm's own child and gets the signal npm forwards.
    expect(output).toContain(`"signal":"${signal}"`);
    expect(await exitCode).toBe(0);
  });

  it('npx ferry-server stops on SIGTERM sent to npm, although npm’s shell leaves the server behind', async () => {
    // npm forwards SIGTERM to `sh -c ferry-server`, which dies without passing it on (dash); the
    // server sees its parent go and stops as on SIGTERM.
    const { output } = await startAndStop('npx', ['ferry-server'], {
      cwd: REPO_ROOT,
      work,
      signal: 'SIGTERM',
      target: 'process',
    });
    expect(output).toContain('"signal":"parent exited"');
  });

  it('npx ferry-server stops on Ctrl-C (SIGINT to the process group)', async () => {
    const { output } = await startAndStop('npx', ['ferry-server'], {
      cwd: REPO_ROOT,
      work,
      signal: 'SIGINT',
      target: 'group',
    });
    expect(output).toContain('"signal":"SIGINT"');
  });
});
