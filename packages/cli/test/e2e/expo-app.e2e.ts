/**
 * npm run e2e:expo — Ferry end to end as a team uses it: installed from a registry into an Expo app
 * that lives outside this repository (not part of `npm test`: it installs an Expo app and runs
 * Metro, which takes minutes).
 *
 * 1. builds Ferry's packages (tsc -b, incremental) and publishes them to a throwaway local registry
 *    (scripts/local-registry.ts);
 * 2. copies examples/expo-app (the files git would check out: no node_modules, no dist, no
 *    certificate) into a fresh temporary folder outside the checkout, makes it a git repository,
 *    and writes an .npmrc that points only the @ferry scope at the local registry;
 * 3. `npm install` there: @ferry/expo and @ferry/cli come from the local registry, everything else
 *    from the usual registry, pinned by the app's lockfile; then the app's own `tsc --noEmit`;
 * 4. starts the server as `npm start` does (the checkout's build), on its embedded defaults in a
 *    temporary DATA_DIR, and embeds its development certificate in the app (certs/certificate.pem);
 * 5. CI=true npx ferry publish --channel production with the app's installed CLI (a real
 *    `expo export` of both platforms, Metro bundling @ferry/expo from node_modules);
 * 6. checks each served manifest as expo-updates would: signature with the server's certificate,
 *    id, runtimeVersion, extra.expoClient, and the hash of every downloaded asset;
 * 7. checks that the fingerprint the server stored for each platform equals what
 *    `npx expo-updates fingerprint:generate --platform <p>` prints in the app (Expo's own tool);
 *    then re-publishes the same export and checks that no asset byte is uploaded;
 * 8. changes the evaluated app config (so the native fingerprint changes) and checks that the
 *    guard's 409 comes back as exit code 2 with the remedy;
 * 9. bundle patches (issue 36): keeps the first export's launch bundles and registers each as the
 *    embedded bundle of a build (`npx ferry embedded upload --update-id … --bundle …`), makes a
 *    one-line change in App.tsx and publishes again (a real export, real Hermes bytecode); then, per
 *    platform, once the second release's patches are made: a device on the first release and one on
 *    the embedded update each get a 226 that Debian's bspatch turns into the second release's
 *    bundle (its SHA-256 is the manifest's), and a request without `A-IM` gets the full 200 as
 *    before. Prints each patch's size against the brotli full bundle.
 *
 * Options: `--update-lockfile` writes the lockfile of the fresh install back to
 * examples/expo-app/package-lock.json, with the @ferry packages recorded by version only (no
 * registry address, no integrity: until Ferry is on npm they come from a local registry whose
 * tarballs change with every build). E2E_KEEP=1 keeps the temporary folders.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../../scripts/free-port.js';
import { FERRY_PACKAGES, type LocalRegistry, startLocalRegistry } from '../../../../scripts/local-registry.js';
import {
  type ClientManifest,
  downloadAndVerify,
  fetchManifestLikeExpo,
} from '../../../server/test/support/expo-client.js';
import { downloadLaunchAssetLikeExpo, rawGet, settledPatches } from '../../../server/test/support/patch-client.js';
import { type SpawnedServer, spawnServer } from '../../../server/test/support/spawn-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const exampleDir = path.join(repoRoot, 'examples/expo-app');
const PLATFORMS = ['ios', 'android'] as const;
/** The app installs Ferry by this version (examples/expo-app/package.json). */
const FERRY_VERSION = '0.1.0';
const updateLockfile = process.argv.includes('--update-lockfile');
const keep = process.env.E2E_KEEP === '1';
/** How long the server may take to make a release's bundle patches (a few seconds each here). */
const PATCH_SETTLE_MS = 180_000;
/** The one-line change of the second publish: the title the app shows. */
const TITLE_LINE = '<Text style={styles.title}>Ferry example</Text>';
const CHANGED_TITLE_LINE = '<Text style={styles.title}>Ferry example, patched</Text>';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Commands under way, to stop them when the run is interrupted. */
const running = new Set<ChildProcess>();

function run(command: string, args: string[], options: SpawnOptions & { echo?: boolean } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (options.echo) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/**
 * The environment of every child: this process's, without what `npm run` adds about the checkout
 * (npm_package_*, npm_lifecycle_*, the local prefix, INIT_CWD), so npm and npx in the app see the
 * app's project and nothing of this repository.
 */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower === 'init_cwd' || lower === 'npm_config_local_prefix') continue;
    if (lower.startsWith('npm_') && !lower.startsWith('npm_config_')) continue;
    env[key] = value;
  }
  // better-sqlite3 and other native modules build against the local Node headers (README).
  env.npm_config_nodedir = process.env.npm_config_nodedir ?? '/usr';
  return { ...env, ...extra };
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e check failed: ${message}`);
}

const timings: Array<{ name: string; seconds: number; failed?: boolean }> = [];
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  process.stdout.write(`\n── ${name}\n`);
  const started = performance.now();
  try {
    const result = await work();
    timings.push({ name, seconds: (performance.now() - started) / 1000 });
    return result;
  } catch (error) {
    timings.push({ name, seconds: (performance.now() - started) / 1000, failed: true });
    throw error;
  }
}

function printTimings(total: number): void {
  const width = Math.max(5, ...timings.map(({ name }) => name.length + 9));
  process.stdout.write('\nphase timings\n');
  for (const { name, seconds, failed } of timings) {
    process.stdout.write(
      `  ${`${name}${failed ? ' (FAILED)' : ''}`.padEnd(width)}  ${seconds.toFixed(1).padStart(6)} s\n`,
    );
  }
  process.stdout.write(`  ${'total'.padEnd(width)}  ${total.toFixed(1).padStart(6)} s\n`);
}

const countFiles = (dir: string): number =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length
    : 0;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

/** `<platform>: published release <id> to production/<platform>/<runtimeVersion>` lines of `ferry publish`. */
const publishedReleases = (stdout: string) =>
  new Map(
    [...stdout.matchAll(/^(ios|android): published release ([0-9a-f-]{36}) to production\/\w+\/(.+)$/gm)].map((m) => [
      m[1]!,
      { id: m[2]!, runtimeVersion: m[3]! },
    ]),
  );

/** The launch bundle of each platform in an `expo export` folder, as its metadata.json names it. */
function exportedLaunchBundles(distDir: string): Record<(typeof PLATFORMS)[number], string> {
  const metadata = JSON.parse(fs.readFileSync(path.join(distDir, 'metadata.json'), 'utf8')) as {
    fileMetadata: Record<string, { bundle: string }>;
  };
  const bundleOf = (platform: string) => {
    const bundle = metadata.fileMetadata[platform]?.bundle;
    check(bundle, `${distDir}/metadata.json names the ${platform} launch bundle`);
    return path.join(distDir, bundle);
  };
  return { ios: bundleOf('ios'), android: bundleOf('android') };
}

const isInside = (dir: string, parent: string) => {
  const relative = path.relative(parent, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** The example's files as a fresh clone has them: tracked and new files, nothing git ignores. */
async function exampleFiles(): Promise<string[]> {
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: exampleDir,
  });
  check(listed.code === 0, `git ls-files in ${exampleDir} failed: ${listed.stderr}`);
  return listed.stdout
    .split('\0')
    .filter((file) => file !== '' && fs.existsSync(path.join(exampleDir, file)))
    .sort();
}

interface Lockfile {
  packages: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean }>;
}
const FERRY_ENTRY = /(^|\/)node_modules\/@ferry\/[^/]+$/;

/** What the committed lockfile must never hold: a registry address or a path back into Ferry. */
function lockfileProblems(text: string): string[] {
  const problems: string[] = [];
  if (/localhost|127\.0\.0\.1|\[::1\]/.test(text)) problems.push('it names a local registry');
  if (/"(file|link):|"\.\.\//.test(text)) problems.push('it links a path (file:, link: or ../)');
  const lock = JSON.parse(text) as Lockfile;
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!FERRY_ENTRY.test(key)) continue;
    if (entry.resolved || entry.integrity) problems.push(`${key} records a tarball (resolved/integrity)`);
    if (entry.link) problems.push(`${key} is a link`);
  }
  return problems;
}

/** package path → version: the installed tree a lockfile describes, whatever registry it came from. */
const lockedVersions = (lock: Lockfile) =>
  new Map(
    Object.entries(lock.packages)
      .filter(([key]) => key !== '')
      .map(([key, entry]) => [key, entry.version ?? '']),
  );

/** The install's lockfile as examples/expo-app commits it: @ferry packages by version only. */
function portableLockfile(text: string): string {
  const lock = JSON.parse(text) as Lockfile;
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (FERRY_ENTRY.test(key)) {
      delete entry.resolved;
      delete entry.integrity;
    } else if (entry.resolved && /localhost|127\.0\.0\.1/.test(entry.resolved)) {
      delete entry.resolved;
    }
  }
  return `${JSON.stringify(lock, null, 2)}\n`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-e2e-'));
  const appDir = path.join(work, 'expo-app');
  const dataDir = path.join(work, 'data');
  const distDir = path.join(appDir, 'dist');
  let registry: LocalRegistry | undefined;
  let server: SpawnedServer | undefined;
  let passed = false;
  // Interrupted (Ctrl-C, a CI timeout): stop the registry and the server this run started.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n── e2e:expo interrupted (${signal})\n`);
      // npm finishes its own clean-up on SIGTERM, which can take half a minute: SIGKILL after 5 s.
      const commands = [...running].map(
        (child) =>
          new Promise((resolve) => {
            if (!child.kill('SIGTERM')) return resolve(null);
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve(null);
            });
          }),
      );
      void Promise.allSettled([...commands, server?.stop(), registry?.stop()]).finally(() => {
        if (!keep) fs.rmSync(work, { recursive: true, force: true });
        process.exit(130);
      });
    });
  }
  try {
    check(!isInside(work, repoRoot), `the app folder ${work} must be outside the checkout ${repoRoot}`);

    await step('check the example app (no path into this repository, portable lockfile)', async () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(exampleDir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      check(
        manifest.dependencies['@ferry/expo'] === FERRY_VERSION,
        `@ferry/expo is a dependency by version ${FERRY_VERSION}`,
      );
      check(
        manifest.devDependencies['@ferry/cli'] === FERRY_VERSION,
        `@ferry/cli is a dev dependency by version ${FERRY_VERSION}`,
      );
      const problems = lockfileProblems(fs.readFileSync(path.join(exampleDir, 'package-lock.json'), 'utf8'));
      check(
        problems.length === 0 || updateLockfile,
        `examples/expo-app/package-lock.json: ${problems.join('; ')} (npm run e2e:expo -- --update-lockfile rewrites it)`,
      );
    });

    await step("build Ferry's packages (tsc -b, incremental)", async () => {
      const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
      const built = await run(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
        cwd: repoRoot,
        echo: true,
      });
      check(built.code === 0, `tsc -b exited ${built.code}`);
    });

    const local = await step(
      `start a local registry and publish ${FERRY_PACKAGES.length} @ferry packages`,
      async () => {
        // Kept at once, so that `finally` stops it even when a publish fails.
        const started = await startLocalRegistry();
        registry = started;
        started.publishAll();
        for (const name of ['expo', 'cli']) {
          // Asked with npm itself, as the install will ask.
          const viewed = await run(
            'npm',
            ['view', `@ferry/${name}@${FERRY_VERSION}`, 'version', '--registry', started.url],
            {
              cwd: work,
              env: childEnv(),
            },
          );
          check(
            viewed.code === 0 && viewed.stdout.trim() === FERRY_VERSION,
            `the local registry serves @ferry/${name}@${FERRY_VERSION}: ${viewed.stdout}${viewed.stderr}`,
          );
        }
        process.stdout.write(`published at ${started.url}\n`);
        return started;
      },
    );

    await step('copy examples/expo-app to a fresh folder outside the checkout', async () => {
      const files = await exampleFiles();
      check(files.includes('package.json') && files.includes('package-lock.json'), 'the example has its manifests');
      check(!files.some((file) => file.split('/').includes('node_modules')), 'nothing from node_modules is copied');
      for (const file of files) {
        fs.mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true });
        fs.copyFileSync(path.join(exampleDir, file), path.join(appDir, file));
      }
      // A team's repository: the app at its root, one commit (publish records commit and branch).
      const git = (...args: string[]) =>
        run('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', ...args], { cwd: appDir });
      for (const args of [
        ['init', '--quiet', '--initial-branch=main'],
        ['add', '--all'],
        ['commit', '--quiet', '--message', 'app'],
      ]) {
        const result = await git(...args);
        check(result.code === 0, `git ${args[0]} in ${appDir}: ${result.stderr}`);
      }
      // Only the @ferry scope comes from the local registry; the rest from the usual registry.
      fs.writeFileSync(path.join(appDir, '.npmrc'), local.scopeNpmrc);
      process.stdout.write(`${files.length} files copied to ${appDir}; .npmrc: ${local.scopeNpmrc}`);
    });

    await step('npm install (the @ferry scope from the local registry)', async () => {
      if (updateLockfile) {
        // The committed lockfile records the @ferry packages' own dependencies as they were; npm
        // would keep those. Dropped, the @ferry packages (and what they now need) are resolved
        // afresh, while every other package keeps its locked version.
        const lockPath = path.join(appDir, 'package-lock.json');
        const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { packages?: Record<string, unknown> };
        for (const key of Object.keys(lock.packages ?? {})) {
          if (/(^|\/)node_modules\/@ferry\//.test(key)) delete lock.packages![key];
        }
        fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
      }
      const installed = await run('npm', ['install', '--no-audit', '--no-fund'], {
        cwd: appDir,
        env: childEnv(),
        echo: true,
      });
      check(installed.code === 0, `npm install in ${appDir} exited ${installed.code}`);
      for (const name of ['expo', 'cli', 'contracts']) {
        const dir = path.join(appDir, 'node_modules/@ferry', name);
        check(fs.existsSync(dir) && !fs.lstatSync(dir).isSymbolicLink(), `@ferry/${name} is installed, not linked`);
        const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
        check(version === FERRY_VERSION, `@ferry/${name} is ${FERRY_VERSION} (got ${version})`);
      }
      const bin = fs.realpathSync(path.join(appDir, 'node_modules/.bin/ferry'));
      check(
        bin === fs.realpathSync(path.join(appDir, 'node_modules/@ferry/cli/bin/ferry.js')),
        `npx ferry is the installed @ferry/cli (got ${bin})`,
      );

      const lockText = fs.readFileSync(path.join(appDir, 'package-lock.json'), 'utf8');
      check(!/"(file|link):|"\.\.\//.test(lockText), 'the installed tree links nothing from outside the app');
      if (updateLockfile) {
        fs.writeFileSync(path.join(exampleDir, 'package-lock.json'), portableLockfile(lockText));
        process.stdout.write('examples/expo-app/package-lock.json rewritten from this install\n');
      } else {
        const committed = lockedVersions(
          JSON.parse(fs.readFileSync(path.join(exampleDir, 'package-lock.json'), 'utf8')) as Lockfile,
        );
        const now = lockedVersions(JSON.parse(lockText) as Lockfile);
        const drift = [...new Set([...committed.keys(), ...now.keys()])].filter(
          (key) => committed.get(key) !== now.get(key),
        );
        check(
          drift.length === 0,
          `the install differs from examples/expo-app/package-lock.json in ${drift.length} package(s) ` +
            `(${drift.slice(0, 5).join(', ')}…): npm run e2e:expo -- --update-lockfile rewrites it`,
        );
      }
    });

    await step("type-check the app (its own tsc, Ferry's published types)", async () => {
      const result = await run('npm', ['run', 'typecheck'], { cwd: appDir, env: childEnv(), echo: true });
      check(result.code === 0, `npm run typecheck in the app exited ${result.code}`);
    });

    const port = await freePort();
    const serverUrl = `http://127.0.0.1:${port}`;
    server = await step('start the server (the checkout build) on its embedded defaults', async () => {
      // The checkout's built server, as `npm start` runs it.
      const spawned = spawnServer(
        { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: serverUrl, LOG_LEVEL: 'info' },
        { built: true },
      );
      process.stdout.write(`listening at ${await spawned.listening}\n`);
      return spawned;
    });
    const token = fs.readFileSync(path.join(dataDir, 'dev', 'release-token'), 'utf8').trim();
    const certificatePem = fs.readFileSync(path.join(dataDir, 'dev', 'code-signing', 'certificate.pem'), 'utf8');
    // The build embeds this certificate: put it where app.config.ts points (certs/ is git-ignored).
    fs.writeFileSync(path.join(appDir, 'certs', 'certificate.pem'), certificatePem);

    const publishEnv = childEnv({
      CI: 'true',
      APP_ENV: 'production',
      OTA_SERVER_URL: serverUrl,
      OTA_RELEASE_TOKEN: token,
      OTA_UPDATE_POLICY: '2',
      GITHUB_ACTOR: 'e2e',
      GITHUB_RUN_ID: String(process.pid),
    });
    // The app's own CLI, as the workflow templates run it; --no: never download one.
    const ferry = (args: string[], env: NodeJS.ProcessEnv = publishEnv) =>
      run('npx', ['--no', '--', 'ferry', ...args], { cwd: appDir, env, echo: true });

    const first = await step('CI=true npx ferry publish --channel production (expo export, both platforms)', () =>
      ferry(['publish', '--channel', 'production']),
    );
    check(first.code === 0, `the first publish exited ${first.code}`);
    const published = publishedReleases(first.stdout);
    check(published.size === 2, 'both platforms were published');
    check(published.get('ios')?.runtimeVersion === '1.0.0(1)', 'ios runtimeVersion comes from the app config');
    check(published.get('android')?.runtimeVersion === '1.0.0(2)', 'android runtimeVersion comes from the app config');

    const manifests = await step('check each manifest as expo-updates would', async () => {
      const checked: Record<string, { manifest: ClientManifest; assets: number; bytes: number; launchBundle: Buffer }> =
        {};
      for (const platform of PLATFORMS) {
        const release = published.get(platform)!;
        const result = await fetchManifestLikeExpo(
          serverUrl,
          'expo',
          { platform, runtimeVersion: release.runtimeVersion, channel: 'production' },
          { certificatePem, keyId: 'main' },
        );
        check(result.kind === 'update', `${platform}: the server serves an update`);
        const { manifest } = result;
        check(manifest.id === release.id, `${platform}: the manifest is the published release`);
        check(manifest.runtimeVersion === release.runtimeVersion, `${platform}: runtimeVersion`);
        const expoClient = manifest.extra.expoClient as { slug?: string; extra?: { appEnv?: string } } | undefined;
        check(expoClient?.slug === 'ferry-example', `${platform}: extra.expoClient carries the app config`);
        check(
          expoClient?.extra?.appEnv === 'production',
          `${platform}: the config was evaluated for APP_ENV=production`,
        );
        check(manifest.extra.updatePolicy === 2, `${platform}: extra.updatePolicy from OTA_UPDATE_POLICY`);
        check(manifest.assets.length >= 1, `${platform}: the logo is an asset`);
        let bytes = 0;
        let launchBundle: Buffer | undefined;
        for (const asset of [manifest.launchAsset, ...manifest.assets]) {
          const { body } = await downloadAndVerify(asset);
          bytes += body.length;
          // Metro bundled the SDK from node_modules/@ferry/expo (the banner's test id; Hermes keeps strings).
          if (asset === manifest.launchAsset) {
            check(body.includes('ferry-notify-banner'), `${platform}: the bundle contains @ferry/expo's banner`);
            launchBundle = body;
          }
        }
        check(launchBundle, `${platform}: the launch bundle was downloaded`);
        checked[platform] = { manifest, assets: manifest.assets.length + 1, bytes, launchBundle };
        process.stdout.write(
          `${platform}: signature verified; ${manifest.assets.length + 1} asset(s), ${bytes} bytes, every hash matches\n`,
        );
      }
      return checked;
    });

    await step('the stored fingerprints equal `npx expo-updates fingerprint:generate` of the app', async () => {
      // The acceptance of issue 18, item 9: the value the guard compares is the one Expo's own CLI
      // prints for the same app (same environment as the publish: APP_ENV=production).
      for (const platform of PLATFORMS) {
        const release = published.get(platform)!;
        const query = new URLSearchParams({ channel: 'production', platform, runtimeVersion: release.runtimeVersion });
        const response = await fetch(`${serverUrl}/api/updates/baseline-fingerprint?${query}`);
        check(response.status === 200, `${platform}: the baseline endpoint answers 200 (got ${response.status})`);
        const baseline = (await response.json()) as { fingerprint: string | null; releaseId: string };
        check(baseline.releaseId === release.id, `${platform}: the baseline is the published release`);
        const expo = await run('npx', ['--no', '--', 'expo-updates', 'fingerprint:generate', '--platform', platform], {
          cwd: appDir,
          env: publishEnv,
        });
        check(
          expo.code === 0,
          `${platform}: npx expo-updates fingerprint:generate exited ${expo.code}: ${expo.stderr}`,
        );
        const printed = (JSON.parse(expo.stdout.trim().split('\n').at(-1) ?? '') as { hash: string }).hash;
        check(
          baseline.fingerprint === printed,
          `${platform}: Ferry stored ${baseline.fingerprint}, expo-updates prints ${printed}`,
        );
        check(
          new RegExp(`^${platform}: fingerprint ${printed} \\(.*Ferry's preset`, 'm').test(first.stderr),
          `${platform}: the publish reported the fingerprint and the preset it used`,
        );
        process.stdout.write(`${platform}: stored fingerprint ${printed} = npx expo-updates fingerprint:generate\n`);
      }
    });

    const objectsBefore = countFiles(dataDir);
    const second = await step('re-publish the same export (--dist)', () =>
      ferry(['publish', '--channel', 'production', '--dist', distDir]),
    );
    check(second.code === 0, `the re-publish exited ${second.code}`);
    for (const platform of PLATFORMS) {
      check(
        new RegExp(`^${platform}: uploaded 0 asset\\(s\\) \\(0 B\\), skipped \\d+ already stored`, 'm').test(
          second.stdout,
        ),
        `${platform}: the re-publish uploaded nothing`,
      );
    }
    check(countFiles(dataDir) === objectsBefore, 'no object was written by the re-publish');
    const republished = publishedReleases(second.stdout);

    const refused = await step('a native change on the same runtimeVersion is refused (exit 2)', () =>
      ferry(['publish', '--channel', 'production', '--platform', 'ios', '--dist', distDir], {
        ...publishEnv,
        // Another API address changes the evaluated config, hence the native fingerprint.
        FERRY_PRODUCTION_API_URL: 'https://other-api.example.com',
      }),
    );
    check(refused.code === 2, `a guard refusal exits 2 (got ${refused.code})`);
    check(/higher build number/.test(refused.stderr), 'the remedy is printed');

    // ── Bundle patches (issue 36), from the exports this run already made and one more.
    const firstExport = path.join(work, 'first-export');
    const embeddedIds = await step(
      "keep the first export's launch bundles; npx ferry embedded upload of each (a build of this commit)",
      async () => {
        const ids: Record<string, string> = {};
        const bundles = exportedLaunchBundles(distDir);
        for (const platform of PLATFORMS) {
          const kept = path.join(firstExport, platform, path.basename(bundles[platform]));
          fs.mkdirSync(path.dirname(kept), { recursive: true });
          fs.copyFileSync(bundles[platform], kept);
          check(
            fs.readFileSync(kept).equals(manifests[platform]!.launchBundle),
            `${platform}: the export's launch bundle is the one the first release serves`,
          );
          // What a team runs after a native build of this commit: the build embeds this bundle.
          ids[platform] = randomUUID();
          const { runtimeVersion } = published.get(platform)!;
          const uploaded = await ferry([
            'embedded',
            'upload',
            '--platform',
            platform,
            '--update-id',
            ids[platform],
            '--bundle',
            kept,
            '--runtime-version',
            runtimeVersion,
          ]);
          check(uploaded.code === 0, `${platform}: ferry embedded upload exited ${uploaded.code}`);
          check(
            uploaded.stdout.includes(`Registered the embedded update of ${platform} ${runtimeVersion}`) &&
              uploaded.stdout.includes(`update id       ${ids[platform]} (from --update-id)`),
            `${platform}: ferry embedded upload registered ${ids[platform]}`,
          );
        }
        return ids;
      },
    );

    const patchedRelease = await step(
      'a one-line change in App.tsx, committed; CI=true npx ferry publish --channel production',
      async () => {
        const appFile = path.join(appDir, 'App.tsx');
        const source = fs.readFileSync(appFile, 'utf8');
        check(source.split(TITLE_LINE).length === 2, `App.tsx contains ${TITLE_LINE} once`);
        fs.writeFileSync(appFile, source.replace(TITLE_LINE, CHANGED_TITLE_LINE));
        const committed = await run(
          'git',
          ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', 'commit', '--quiet', '-am', 'A new title'],
          { cwd: appDir },
        );
        check(committed.code === 0, `git commit in ${appDir}: ${committed.stderr}`);
        const again = await ferry(['publish', '--channel', 'production']);
        check(again.code === 0, `the publish of the change exited ${again.code}`);
        const released = publishedReleases(again.stdout);
        for (const platform of PLATFORMS) {
          check(
            released.get(platform)?.runtimeVersion === published.get(platform)!.runtimeVersion,
            `${platform}: the change was published on the same runtimeVersion`,
          );
        }
        return released;
      },
    );

    const patchSizes: string[] = [];
    await step(
      'each platform: 226 patches from the first release and from the embedded bundle (Debian bspatch); 200 full without A-IM',
      async () => {
        const authed = (route: string, init: RequestInit = {}) =>
          fetch(`${serverUrl}${route}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
        for (const platform of PLATFORMS) {
          const { runtimeVersion } = published.get(platform)!;
          const firstId = published.get(platform)!.id;
          const secondId = patchedRelease.get(platform)!.id;
          const fetched = await fetchManifestLikeExpo(
            serverUrl,
            'expo',
            { platform, runtimeVersion, channel: 'production' },
            { certificatePem, keyId: 'main' },
          );
          check(fetched.kind === 'update', `${platform}: the server serves the change`);
          const { launchAsset } = fetched.manifest;
          check(fetched.manifest.id === secondId, `${platform}: the manifest is the second release`);
          const firstBundle = manifests[platform]!.launchBundle;
          check(sha256(firstBundle) !== launchAsset.hash, `${platform}: the change changed the launch bundle`);

          const patches = await settledPatches(
            { authed },
            { channel: 'production', platform, runtimeVersion },
            secondId,
            PATCH_SETTLE_MS,
          );
          // The first release and its re-publish share one bundle, so one patch serves both (the
          // embedded bundle too: same bytes); it names the newest release it was queued from.
          const earlier = [firstId, republished.get(platform)?.id];
          const fromRelease = patches.find((patch) => patch.base.kind === 'release');
          check(
            fromRelease?.state === 'ready' && earlier.includes(fromRelease.base.updateId),
            `${platform}: the patch from the first release's bundle is ready (${JSON.stringify(patches)})`,
          );

          const onRelease = await downloadLaunchAssetLikeExpo(
            launchAsset.url,
            { currentUpdateId: firstId, requestedUpdateId: secondId, runningBundle: firstBundle, platform },
            launchAsset.hash,
          );
          check(
            onRelease.kind === 'patch' && onRelease.answer.status === 226,
            `${platform}: a device on the first release gets a 226 (got ${onRelease.answer.status})`,
          );
          check(
            onRelease.answer.body.subarray(0, 8).toString('latin1') === 'BSDIFF40' &&
              onRelease.answer.body.length === fromRelease.bytes,
            `${platform}: the 226 body is the listed BSDIFF40 patch`,
          );

          const embeddedBundle = fs.readFileSync(
            path.join(firstExport, platform, fs.readdirSync(path.join(firstExport, platform))[0]!),
          );
          const onEmbedded = await downloadLaunchAssetLikeExpo(
            launchAsset.url,
            {
              currentUpdateId: embeddedIds[platform]!,
              requestedUpdateId: secondId,
              runningBundle: embeddedBundle,
              platform,
            },
            launchAsset.hash,
          );
          check(
            onEmbedded.kind === 'patch' && onEmbedded.answer.status === 226,
            `${platform}: a device on the embedded update gets a 226 (got ${onEmbedded.answer.status})`,
          );

          // Without A-IM (expo-updates before 55, or patches off): the full bundle, as before.
          const plainHeaders = { accept: '*/*', 'accept-encoding': 'br, gzip' };
          const plain = await rawGet(launchAsset.url, plainHeaders);
          const older = await rawGet(launchAsset.url, {
            ...plainHeaders,
            'expo-platform': platform,
            'expo-current-update-id': firstId,
          });
          for (const [name, answer] of [
            ['a plain download', plain],
            ['expo-current-update-id without A-IM', older],
          ] as const) {
            check(
              answer.status === 200 &&
                answer.headers.im === undefined &&
                answer.headers['expo-base-update-id'] === undefined &&
                answer.headers['content-encoding'] === 'br',
              `${platform}: ${name} is a 200 full brotli answer (${answer.status}, im ${answer.headers.im})`,
            );
          }
          check(older.body.equals(plain.body), `${platform}: without A-IM the bytes are the plain download's`);
          const full = (await downloadAndVerify(launchAsset)).body;
          check(sha256(full) === launchAsset.hash, `${platform}: the full download hashes to the manifest's`);

          const ratio = (bytes: number) => (bytes / plain.body.length).toFixed(3);
          patchSizes.push(
            `${platform}: bundle ${full.length} B, brotli full ${plain.body.length} B (listed ${fromRelease.fullBytes} B); ` +
              `patch ${onRelease.answer.body.length} B = ${ratio(onRelease.answer.body.length)} × brotli ` +
              `(from the first release and from the embedded bundle: ${onEmbedded.answer.body.length} B)`,
          );
          process.stdout.write(`${patchSizes.at(-1)}\n`);
        }
      },
    );

    passed = true;
    process.stdout.write('\n── e2e:expo passed\n');
    for (const platform of PLATFORMS) {
      const m = manifests[platform]!;
      process.stdout.write(`${platform}: release ${m.manifest.id}, ${m.assets} asset(s), ${m.bytes} bytes\n`);
    }
    process.stdout.write(`one-line change, bundle patches:\n${patchSizes.map((line) => `  ${line}\n`).join('')}`);
  } finally {
    if (!passed && server)
      process.stderr.write(`\nserver output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}\n`);
    await server?.stop();
    await registry?.stop();
    if (keep) process.stdout.write(`\nkept ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true });
    printTimings((performance.now() - started) / 1000);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\n── e2e:expo FAILED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
