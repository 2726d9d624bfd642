import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFiles } from '../../test/support/app-fixture.js';
import { GitFixture } from '../../test/support/git-fixture.js';

const execFileAsync = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/ferry.js');

/** The real `ferry` binary, as CI runs it. */
async function ferry(cwd: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('ferry native-affected (the binary)', () => {
  let fixture: GitFixture;
  let base: string;
  let jsOnly: string;
  let native: string;
  let outputDir: string;

  beforeAll(async () => {
    fixture = await GitFixture.create(appFiles());
    base = await fixture.git('rev-parse', 'HEAD');
    jsOnly = await fixture.commit('js', { 'src/screens/Home.tsx': 'export const Home = () => 1;\n' });
    native = await fixture.commit('plugin', { 'plugins/with-ferry.js': 'module.exports = (c) => ({ ...c });\n' });
    outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-out-'));
  });
  afterAll(() => {
    fixture.cleanup();
    fs.rmSync(outputDir, { recursive: true, force: true });
  });

  it('prints not-affected alone on stdout, the reason on stderr, exit 0, and the step outputs', async () => {
    const output = path.join(outputDir, 'js');
    fs.writeFileSync(output, '');
    const run = await ferry(fixture.dir, ['native-affected', '--base', base, '--head', jsOnly], {
      GITHUB_OUTPUT: output,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'not-affected\n' });
    expect(run.stderr).toMatch(/JavaScript-only change/);
    const written = fs.readFileSync(output, 'utf8');
    expect(written).toMatch(/^affected<<.*\nfalse\n/m);
    expect(written).toMatch(/^app-changed<<.*\ntrue\n/m);
  });

  it('prints affected with the path and the reason, exit 0', async () => {
    const run = await ferry(fixture.dir, ['native-affected', '--base', jsOnly, '--head', native]);
    expect(run).toMatchObject({ code: 0, stdout: 'affected\n' });
    expect(run.stderr).toMatch(/plugins\/with-ferry\.js: /);
  });

  it('an unknown base: affected, exit 0', async () => {
    const run = await ferry(fixture.dir, ['native-affected', '--base', 'origin/nope']);
    expect(run).toMatchObject({ code: 0, stdout: 'affected\n' });
    expect(run.stderr).toMatch(/not a commit/);
  });

  it('a missing --base is a usage error', async () => {
    const run = await ferry(fixture.dir, ['native-affected']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--base/);
  });
});
