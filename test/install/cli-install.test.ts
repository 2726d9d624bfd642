/**
 * Ferry's packages as a team installs them: published to a throwaway registry (Verdaccio, the @ferry
 * scope only; everything else from the usual registry), installed into empty folders outside this
 * checkout, and run with plain Node.
 *
 * - `@ferry/cli` alone brings in nothing of the server (fastify, pg, better-sqlite3, the AWS SDK)
 *   and no compiler (typescript, tsx, esbuild); `ferry --version`, `--help` work, `ferry init` writes
 *   an app from what the package carries (the workflow templates copied at pack time), and `ferry
 *   dev-token` without @ferry/dev-tools (not a dependency) says what to install.
 * - `@ferry/certificate-flow` and `@ferry/contracts` load on plain Node (built JavaScript, no
 *   TypeScript sources behind their exports).
 * - `@ferry/expo` for an OTA-only app brings none of the certificate funnel (`@ferry/certificate-flow`,
 *   i18next, react-i18next: optional peers), and its root entry reaches none of them; an app that
 *   mounts the funnel installs the peers and `@ferry/expo/certificates` resolves.
 *
 * Slow (a registry, a publish of every package, two installs): every wait is on a process's end; the
 * only limits are the hang guards of test/support/hang-guard.cjs (the hooks that install get the slow
 * one), and afterAll ends whatever a hung step left running.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_55_TEMPLATE } from '../../packages/cli/test/support/expo-templates.js';
import { type LocalRegistry, REPO_ROOT, startLocalRegistry } from '../../scripts/local-registry.js';
import {
  cleanEnv,
  diskUsage,
  installedPackages,
  killAll,
  mib,
  run,
  runOk,
  scopedProject,
} from '../e2e/support/sandbox.js';
import { SLOW_HANG_GUARD_MS } from '../support/hang-guard.cjs';
import { bareImportsOf } from '../support/module-graph.js';

const FORBIDDEN = ['fastify', 'pg', 'better-sqlite3', 'typescript', 'tsx', 'esbuild'];
const isForbidden = (name: string) => FORBIDDEN.includes(name) || name.startsWith('@aws-sdk/');

const packageVersion = (name: string): string =>
  (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages', name, 'package.json'), 'utf8')) as { version: string })
    .version;

let registry: LocalRegistry | undefined;
const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

const npmInstall = (dir: string, args: string[]) =>
  runOk('npm', ['install', '--no-audit', '--no-fund', ...args], { cwd: dir });

beforeAll(async () => {
  registry = await startLocalRegistry();
  registry.publishAll();
}, SLOW_HANG_GUARD_MS);

afterAll(async () => {
  killAll();
  await registry?.stop();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

describe('@ferry/cli installed alone from the registry', () => {
  let app = '';
  const ferry = (...args: string[]) => run('npx', ['ferry', ...args], { cwd: app });

  beforeAll(async () => {
    app = path.join(tempDir('ferry-cli-install-'), 'app');
    scopedProject(app, registry!.url);
    await npmInstall(app, ['--save-dev', '@ferry/cli']);
  }, SLOW_HANG_GUARD_MS);

  it('brings in no server dependency and no compiler, anywhere in its tree', () => {
    const packages = installedPackages(app);
    expect(packages.some((found) => found.name === '@ferry/cli')).toBe(true);
    const offenders = packages
      .filter((found) => isForbidden(found.name))
      .map((found) => `${found.name}@${found.version} at ${path.relative(app, found.dir)}`);
    expect(offenders).toEqual([]);
    // @ferry/dev-tools stays out unless a team installs it.
    expect(packages.filter((found) => found.name === '@ferry/dev-tools' || found.name === '@ferry/server')).toEqual([]);

    const usage = diskUsage([path.join(app, 'node_modules')]);
    console.log(
      `installed @ferry/cli: ${packages.length} packages, ${(usage.bytes / 1e6).toFixed(1)} MB on disk (${mib(usage.apparentBytes)} in ${usage.files} files)`,
    );
  });

  it('ferry --version prints the package version', async () => {
    const result = await ferry('--version');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(packageVersion('cli'));
  });

  it('ferry --help lists the commands', async () => {
    const result = await ferry('--help');
    expect(result.code, result.stderr).toBe(0);
    for (const command of [
      'publish',
      'releases',
      'rollback',
      'audit',
      'gate',
      'native-affected',
      'bump',
      'keys',
      'init',
      'doctor',
      'dev-token',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('ferry init writes Ferry into an app with what the package carries: the workflow templates, the diff, a certificate', async () => {
    // The files of Expo's SDK 55 template that init reads, in the folder where @ferry/cli was installed.
    for (const [file, text] of Object.entries(SDK_55_TEMPLATE)) {
      if (file === 'package.json') continue;
      fs.mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
      fs.writeFileSync(path.join(app, file), text);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    fs.writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ ...manifest, dependencies: { expo: '~55.0.31' } }),
    );

    const shown = await ferry('init', '--server', 'https://api.example.com', '--banner');
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain('+++ b/.github/workflows/publish.yml');
    expect(fs.existsSync(path.join(app, 'app.config.js'))).toBe(false);

    const written = await ferry('init', '--server', 'https://api.example.com', '--banner', '--yes');
    expect(written.code, written.stderr).toBe(0);
    const templates = path.join(REPO_ROOT, 'examples/expo-app/.github/workflows');
    for (const name of fs.readdirSync(templates)) {
      expect(fs.readFileSync(path.join(app, '.github/workflows', name), 'utf8')).toBe(
        fs.readFileSync(path.join(templates, name), 'utf8'),
      );
    }
    const certificate = new X509Certificate(fs.readFileSync(path.join(app, 'certs/certificate.pem')));
    expect(certificate.keyUsage).toContain('1.3.6.1.5.5.7.3.3');
    expect(fs.readFileSync(path.join(app, 'src/app/_layout.tsx'), 'utf8')).toContain('<OtaUpdateBanner');

    const again = await ferry('init', '--server', 'https://api.example.com', '--banner');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('nothing to change');
  });

  it('ferry dev-token without @ferry/dev-tools fails with a message naming it', async () => {
    const result = await ferry('dev-token', '--user', 'someone');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^ferry: ferry dev-token needs @ferry\/dev-tools\b/m);
    expect(result.stderr).toContain('npm install --save-dev @ferry/dev-tools');
    // A message, not a crash.
    expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|\n\s+at /);
  });
});

describe('@ferry/certificate-flow and @ferry/contracts on plain Node', () => {
  let app = '';

  beforeAll(async () => {
    app = path.join(tempDir('ferry-lib-install-'), 'app');
    scopedProject(app, registry!.url, { type: 'module' });
    await npmInstall(app, ['@ferry/certificate-flow', '@ferry/contracts']);
  }, SLOW_HANG_GUARD_MS);

  it.each([
    [
      '@ferry/contracts',
      ['@ferry/contracts', '@ferry/contracts/update-policy', '@ferry/contracts/languages', '@ferry/contracts/vendors'],
    ],
    [
      '@ferry/certificate-flow',
      // ./react needs the optional peer react, which a plain Node consumer does not have.
      ['@ferry/certificate-flow', '@ferry/certificate-flow/webcrypto', '@ferry/certificate-flow/pure-js'],
    ],
  ])('%s and its subpaths import with node --input-type=module', async (_name, specifiers) => {
    const script = `
      const specifiers = ${JSON.stringify(specifiers)};
      for (const specifier of specifiers) {
        const module = await import(specifier);
        const names = Object.keys(module);
        if (names.length === 0) throw new Error(specifier + ' exports nothing');
        console.log(specifier + ': ' + names.length + ' exports');
      }
    `;
    const result = await run('node', ['--input-type=module', '-e', script], {
      cwd: app,
      env: cleanEnv(),
    });
    expect(result.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    expect(result.code, result.stderr).toBe(0);
    for (const specifier of specifiers) expect(result.stdout).toContain(`${specifier}: `);
  });
});

describe('@ferry/expo installed for an OTA-only app', () => {
  let app = '';
  let expo = '';
  /** The funnel's packages: optional peers of @ferry/expo, installed only by an app that mounts it. */
  const FUNNEL = ['@ferry/certificate-flow', 'react-i18next', 'i18next'];
  interface Manifest {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  }
  const manifest = () => JSON.parse(fs.readFileSync(path.join(expo, 'package.json'), 'utf8')) as Manifest;
  /**
   * The specifiers that do not resolve from @ferry/expo's folder, asked of a plain Node (this
   * process resolves with the checkout's `@ferry/source` condition, which the tarballs do not serve).
   */
  const unresolved = async (specifiers: string[]): Promise<string[]> => {
    const script = `
      const { createRequire } = require('node:module');
      const resolve = createRequire(process.argv[1]).resolve;
      const missing = JSON.parse(process.argv[2]).filter((specifier) => {
        try { resolve(specifier); return false; } catch { return true; }
      });
      console.log(JSON.stringify(missing));`;
    const result = await run(
      'node',
      ['-e', script, path.join(expo, 'package.json'), JSON.stringify([...new Set(specifiers)])],
      { cwd: app, env: cleanEnv() },
    );
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as string[];
  };
  const names = () => new Set(installedPackages(app).map((found) => found.name));

  beforeAll(async () => {
    app = path.join(tempDir('ferry-expo-install-'), 'app');
    scopedProject(app, registry!.url);
    // --legacy-peer-deps: what @ferry/expo itself brings, without the React Native tree its
    // required peers (react, react-native) would pull in; every app has those already.
    await npmInstall(app, ['--legacy-peer-deps', '@ferry/expo']);
    expo = path.join(app, 'node_modules', '@ferry', 'expo');
  }, SLOW_HANG_GUARD_MS);

  it('brings none of the certificate funnel: npm ls finds no i18next', async () => {
    const installed = names();
    expect(installed.has('@ferry/expo')).toBe(true);
    expect(FUNNEL.filter((name) => installed.has(name))).toEqual([]);
    const listed = await run('npm', ['ls', 'i18next', '--all', '--json'], { cwd: app, env: cleanEnv() });
    expect(JSON.parse(listed.stdout).dependencies ?? {}).toEqual({});
    // The funnel's packages are peers the package marks optional, so npm never adds them itself.
    const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = manifest();
    for (const name of ['@ferry/certificate-flow', 'react-i18next']) {
      expect(dependencies[name], name).toBeUndefined();
      expect(peerDependencies[name], name).toBeDefined();
      expect(peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
  });

  it("its root entry reaches only its dependencies and the app's own React Native packages", async () => {
    const { dependencies = {}, peerDependencies = {} } = manifest();
    const reached = bareImportsOf(expo, 'dist/index.js');
    expect(reached.length).toBeGreaterThan(0);
    expect([...new Set(reached.map((found) => found.packageName))].filter((name) => FUNNEL.includes(name))).toEqual([]);
    const own = reached.filter((found) => found.packageName in dependencies);
    const theApps = reached.filter((found) => !(found.packageName in dependencies));
    // Installed with it, under a subpath its package exports.
    expect(await unresolved(own.map((found) => found.specifier))).toEqual([]);
    // react, react-native, expo-updates: the app's own, declared as peers.
    expect(theApps.filter((found) => peerDependencies[found.packageName] === undefined)).toEqual([]);
  });

  it('an app that mounts the funnel installs the peers, and @ferry/expo/certificates resolves', async () => {
    const funnel = bareImportsOf(expo, 'dist/certificates/index.js');
    const packages = new Set(funnel.map((found) => found.packageName));
    expect(packages.has('@ferry/certificate-flow')).toBe(true);
    expect(packages.has('react-i18next')).toBe(true);
    const { dependencies = {}, peerDependencies = {} } = manifest();
    expect([...packages].filter((name) => !(name in dependencies) && !(name in peerDependencies))).toEqual([]);
    await npmInstall(app, ['--legacy-peer-deps', '@ferry/certificate-flow', 'react-i18next']);
    const needed = funnel.filter((found) => found.packageName !== 'react' && found.packageName !== 'react-native');
    expect(await unresolved(needed.map((found) => found.specifier))).toEqual([]);
    expect(names().has('i18next')).toBe(true);
  });
});
