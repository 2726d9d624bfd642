/**
 * npm run e2e:registry — Ferry installed the way a team installs it, end to end (minutes; not part
 * of `npm test`).
 *
 * 1. A throwaway registry (Verdaccio) serves every Ferry package, published from this checkout's
 *    builds; consumers take the @ferry scope from it (`@ferry:registry=…` in .npmrc) and everything
 *    else from their usual registry.
 * 2. In a temporary folder outside this checkout: a new Expo app from the official template of the
 *    SDK the example app uses (`npm pack expo-template-default@<major>`), installed, committed.
 * 3. `@ferry/expo` + expo-updates (and, for the certificate funnel it mounts,
 *    `@ferry/certificate-flow` and react-i18next) and `@ferry/cli` from the registry
 *    (docs/add-to-an-app.md, step 1).
 * 4. In another folder: `npm install @ferry/server`, `npx ferry-server` on SQLite (its own DATA_DIR,
 *    a free PORT), ready when /readyz answers.
 * 5. docs/add-to-an-app.md as written: `npx ferry init --server … --certificate <the server's>
 *    --banner` shows a diff and writes nothing, then `--yes` writes (app.config.js, release.config.js,
 *    fingerprint.config.js, the certificate, .gitignore, the workflows, the banner in the root
 *    layout); the commit holds certs/certificate.pem; `npx ferry doctor` passes.
 * 6. `npx expo export --platform ios --platform android`, `CI=true npx ferry publish --channel
 *    production --dist dist`; each platform's manifest is fetched as expo-updates does, its
 *    signature verified with the app's certificate and every asset's SHA-256 checked; the release
 *    records the git commit; `npx ferry doctor --dist dist` verifies both updates' signatures.
 *    `npx ferry embedded upload --platform <p> --update-id <uuid> --bundle <file>` registers a
 *    build's embedded bundle (the published one with a string changed) against the installed
 *    server, whose patch from it to the release becomes ready; a device on that update gets a 226
 *    that Debian's bspatch turns into the published bundle.
 * 6. `npx ferry gate` passes (same fingerprint as the production baseline); against a server that
 *    cannot be reached it blocks with an annotation naming `--allow-unreachable`, which lets it pass.
 * 7. A second publish of the same export (`--dist`) sends 0 asset bytes.
 * 8. `npx ferry releases` without a track lists every release with the commit subject as its
 *    message; `npx ferry audit` prints the release.created events as NDJSON, and `--table` a table.
 * 9. The second publish's release group, promoted by `npx ferry promote --group` to development with a
 *    rollout, then widened on both platforms by `npx ferry rollout --group`, as the API lists it.
 * 10. A certificate swap (another `ferry keys generate` certificate committed in its place): `ferry
 *    publish` refuses it naming the file, and `ferry gate` blocks it as a native change.
 *
 * Prints the time of each phase and the installed sizes. FERRY_E2E_KEEP=1 keeps the temporary
 * folders (their path is printed).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type ClientManifest,
  checkManifestLikeExpo,
  clientHeaders,
  downloadAndVerify,
  fetchManifestLikeExpo,
} from '../../packages/server/test/support/expo-client.js';
import { downloadLaunchAssetLikeExpo, settledPatches } from '../../packages/server/test/support/patch-client.js';
import { type LocalRegistry, REPO_ROOT, startLocalRegistry } from '../../scripts/local-registry.js';
import { HANG_GUARD_MS, SLOW_HANG_GUARD_MS } from '../support/hang-guard.cjs';
import {
  cleanEnv,
  dependencyClosure,
  diskUsage,
  freePort,
  installedPackages,
  killAll,
  mib,
  type RunOptions,
  run,
  runOk,
  scopedProject,
  start,
  waitUntilReady,
  writeScopeNpmrc,
} from './support/sandbox.js';

const PLATFORMS = ['ios', 'android'] as const;
type Platform = (typeof PLATFORMS)[number];
const APP_NAME = 'ferry-registry-e2e';
/** What `ferry init` takes from the template's app.json into release.config.js (no build numbers: 1). */
const APP_VERSION = '1.0.0';
const IOS_BUILD_NUMBER = '1';
const ANDROID_VERSION_CODE = 1;
const RUNTIME_VERSIONS: Record<Platform, string> = {
  ios: `${APP_VERSION}(${IOS_BUILD_NUMBER})`,
  android: `${APP_VERSION}(${ANDROID_VERSION_CODE})`,
};
/** The commit that is published: its subject becomes each release's message. */
const PUBLISH_COMMIT_SUBJECT = 'Publish OTA updates with Ferry';
/** A string of the SDK's Notify banner: the published bundle must contain the SDK. */
const SDK_MARKER = 'ferry-notify-banner';
/** A provider's label from @ferry/contracts, reached through @ferry/expo/certificates. */
const CERTIFICATES_MARKER = 'Bank certificate E';
/** How long the installed server may take to make a bundle patch (seconds here). */
const PATCH_SETTLE_MS = 120_000;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e check failed: ${message}`);
}

const timings: Array<[string, number]> = [];
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  process.stdout.write(`\n── ${name}\n`);
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings.push([name, (performance.now() - started) / 1000]);
  }
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

interface PackageManifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
  [key: string]: unknown;
}

/** Replaces `from` (which must occur exactly once) in a file of the template. */
function edit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf(from);
  check(at >= 0 && text.indexOf(from, at + 1) < 0, `${file} contains ${JSON.stringify(from)} once (template changed?)`);
  fs.writeFileSync(file, text.slice(0, at) + to + text.slice(at + from.length));
}

const countFiles = (dir: string): number =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length
    : 0;

/**
 * What a team adds besides `ferry init`: the native certificate funnel mounted as docs/app-sdk.md
 * shows (one component, two props), so the export below bundles @ferry/expo/certificates, its
 * catalogue and i18n from the installed packages.
 */
function addCertificateFunnel(app: string, serverUrl: string): void {
  edit(
    path.join(app, 'src', 'app', '_layout.tsx'),
    "import { useColorScheme } from 'react-native';\n",
    "import { CERTIFICATE_PROVIDERS } from '@ferry/expo/certificates';\nimport { useColorScheme } from 'react-native';\n\n// The native certificate funnel's entry point is bundled too (its providers list).\nexport const certificateProviders = CERTIFICATE_PROVIDERS;\n",
  );
  fs.writeFileSync(
    path.join(app, 'src', 'app', 'certificate.tsx'),
    `import { CertificateFunnel } from '@ferry/expo/certificates';

const server = {
  url: process.env.EXPO_PUBLIC_FERRY_API_URL ?? '${serverUrl}',
  getToken: async () => 'a certified member token',
  aesKey: process.env.EXPO_PUBLIC_CERT_AES_KEY ?? '',
};

export default function CertificateScreen() {
  return <CertificateFunnel server={server} entry={{ kind: 'menu' }} />;
}
`,
  );
}

interface PublishReport {
  released: Map<Platform, { id: string; runtimeVersion: string }>;
  uploads: Map<Platform, { uploaded: number; uploadedSize: string; skipped: number; skippedSize: string }>;
}

/** Reads the publisher's stdout (docs/publishing.md, "Output"). */
function parsePublish(stdout: string): PublishReport {
  const released = new Map(
    [...stdout.matchAll(/^(ios|android): published release ([0-9a-f-]{36}) to production\/\w+\/(.+)$/gm)].map(
      (m) => [m[1] as Platform, { id: m[2]!, runtimeVersion: m[3]! }] as const,
    ),
  );
  const uploads = new Map(
    [
      ...stdout.matchAll(
        /^(ios|android): uploaded (\d+) asset\(s\) \(([^)]+)\), skipped (\d+) already stored \(([^)]+)\)$/gm,
      ),
    ].map(
      (m) =>
        [
          m[1] as Platform,
          { uploaded: Number(m[2]), uploadedSize: m[3]!, skipped: Number(m[4]), skippedSize: m[5]! },
        ] as const,
    ),
  );
  return { released, uploads };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-registry-e2e-'));
  check(path.relative(REPO_ROOT, work).startsWith('..'), 'the temporary folder is outside the checkout');
  const app = path.join(work, APP_NAME);
  const serverDir = path.join(work, 'server');
  const dataDir = path.join(serverDir, 'data');
  const keep = process.env.FERRY_E2E_KEEP === '1';
  let registry: LocalRegistry | undefined;
  let server: ReturnType<typeof start> | undefined;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await server?.stop();
    killAll();
    await registry?.stop();
    if (keep) process.stdout.write(`\nkept ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const started = performance.now();
  const sh = (command: string, args: string[], cwd: string, options: Partial<RunOptions> = {}) =>
    runOk(command, args, { cwd, echo: true, timeoutMs: SLOW_HANG_GUARD_MS, ...options });
  const npm = (cwd: string, ...args: string[]) => sh('npm', [...args, '--no-audit', '--no-fund'], cwd);
  const gitEnv = cleanEnv({
    GIT_AUTHOR_NAME: 'Ferry e2e',
    GIT_AUTHOR_EMAIL: 'e2e@example.com',
    GIT_COMMITTER_NAME: 'Ferry e2e',
    GIT_COMMITTER_EMAIL: 'e2e@example.com',
  });
  const git = (...args: string[]) => runOk('git', args, { cwd: app, env: gitEnv, timeoutMs: HANG_GUARD_MS });

  try {
    registry = await phase('start the local registry', () => startLocalRegistry());
    const registryUrl = registry.url;
    await phase('publish every Ferry package to it', async () => registry!.publishAll());

    // ── The app, from the official template of the example app's SDK.
    const example = readJson<PackageManifest>(path.join(REPO_ROOT, 'examples/expo-app/package.json'));
    const sdkMajor = /(\d+)\./.exec(example.dependencies?.expo ?? '')?.[1];
    check(sdkMajor, 'examples/expo-app/package.json names the expo version');
    const templateBase = await phase(`create an Expo app from expo-template-default@${sdkMajor}`, async () => {
      const packed = await sh('npm', ['pack', `expo-template-default@${sdkMajor}`, '--pack-destination', work], work);
      const tarball = packed.stdout.trim().split('\n').pop()!;
      await sh('tar', ['xzf', path.join(work, tarball), '-C', work], work);
      fs.renameSync(path.join(work, 'package'), app);
      fs.rmSync(path.join(work, tarball));
      // What create-expo-app does with the template's dotfiles.
      if (fs.existsSync(path.join(app, 'gitignore')))
        fs.renameSync(path.join(app, 'gitignore'), path.join(app, '.gitignore'));
      if (fs.existsSync(path.join(app, '_vscode'))) fs.renameSync(path.join(app, '_vscode'), path.join(app, '.vscode'));
      const manifest = readJson<PackageManifest>(path.join(app, 'package.json'));
      manifest.name = APP_NAME;
      manifest.version = APP_VERSION;
      manifest.private = true;
      delete manifest.license;
      // The registry here lacks a dependency of the newest expo-constants 57.x; the example app pins
      // it through overrides (docs/publishing.md). Take the same pin when the example has it.
      if (example.overrides?.['expo-constants'] && example.dependencies?.['expo-constants']) {
        manifest.dependencies = { ...manifest.dependencies, 'expo-constants': example.dependencies['expo-constants'] };
        manifest.overrides = { ...manifest.overrides, 'expo-constants': '$expo-constants' };
      }
      // expo itself at the version the example app locks: the template's range takes the newest 57.x
      // the registry lists, whose bundledNativeModules.json may name an expo-updates the registry
      // does not hold yet (expo 57.0.33 names ~57.0.28, absent here).
      const lockedExpo = readJson<{ packages: Record<string, { version: string }> }>(
        path.join(REPO_ROOT, 'examples/expo-app/package-lock.json'),
      ).packages['node_modules/expo']?.version;
      check(lockedExpo, 'examples/expo-app/package-lock.json locks expo');
      manifest.dependencies = { ...manifest.dependencies, expo: lockedExpo };
      writeJson(path.join(app, 'package.json'), manifest);
      const appJson = readJson<{ expo: Record<string, unknown> }>(path.join(app, 'app.json'));
      appJson.expo.name = 'Ferry registry e2e';
      appJson.expo.slug = APP_NAME;
      writeJson(path.join(app, 'app.json'), appJson);
      await npm(app, 'install');
      await git('init', '-q', '-b', 'main');
      await git('add', '-A');
      await git('commit', '-q', '-m', 'A new Expo app from the default template');
      return (await git('rev-parse', 'HEAD')).stdout.trim();
    });

    await phase(
      'install @ferry/expo, expo-updates, the funnel peers and @ferry/cli (the @ferry scope from the local registry)',
      async () => {
        writeScopeNpmrc(app, registryUrl);
        const bundled = readJson<Record<string, string>>(path.join(app, 'node_modules/expo/bundledNativeModules.json'));
        const updatesRange = bundled['expo-updates'];
        check(updatesRange, 'expo names the expo-updates version of its SDK');
        // The app mounts the certificate funnel too, so it installs the funnel's packages, optional
        // peers of @ferry/expo that an OTA-only app leaves out (docs/app-sdk.md, "Installing").
        await npm(
          app,
          'install',
          '@ferry/expo',
          `expo-updates@${updatesRange}`,
          '@ferry/certificate-flow',
          'react-i18next@^18.0.2',
        );
        await npm(app, 'install', '--save-dev', '@ferry/cli');
      },
    );

    // ── The server, installed on its own.
    const port = await freePort();
    const serverUrl = `http://127.0.0.1:${port}`;
    await phase('install @ferry/server in its own folder', async () => {
      // Both install scripts build a native addon (node-gyp): SQLite, and bsdiff for bundle patches.
      scopedProject(serverDir, registryUrl, { allowScripts: { 'better-sqlite3': true, 'bsdiff-node': true } });
      await npm(serverDir, 'install', '@ferry/server');
      const version = await runOk('npx', ['ferry-server', '--version'], { cwd: serverDir, timeoutMs: HANG_GUARD_MS });
      const expected = readJson<PackageManifest>(path.join(REPO_ROOT, 'packages/server/package.json')).version;
      check(version.stdout.trim() === expected, `ferry-server --version prints ${expected}`);
    });
    await phase('npx ferry-server (SQLite, DATA_DIR in its folder) until /readyz', async () => {
      server = start('npx', ['ferry-server'], {
        cwd: serverDir,
        echo: true,
        env: cleanEnv({
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: serverUrl,
          LOG_LEVEL: 'info',
        }),
      });
      await waitUntilReady(`${serverUrl}/readyz`, server.exited, server.output);
    });
    const releaseToken = fs.readFileSync(path.join(dataDir, 'dev', 'release-token'), 'utf8').trim();
    const certificatePem = fs.readFileSync(path.join(dataDir, 'dev', 'code-signing', 'certificate.pem'), 'utf8');

    const serverCertificate = path.join(dataDir, 'dev', 'code-signing', 'certificate.pem');
    const init = (...args: string[]) =>
      run('npx', ['ferry', 'init', '--server', serverUrl, '--certificate', serverCertificate, '--banner', ...args], {
        cwd: app,
        env: cleanEnv({}),
        echo: true,
        timeoutMs: HANG_GUARD_MS,
      });
    const headCommit = await phase('npx ferry init (a diff, nothing written), then --yes; commit', async () => {
      // The installs just above changed package.json, the lock file and .npmrc, uncommitted.
      const before = (await git('status', '--porcelain')).stdout;
      const shown = await init();
      check(shown.code === 1, `ferry init without --yes and without a terminal exits 1 (${shown.code})`);
      check(shown.stdout.includes('+++ b/app.config.js'), 'ferry init shows the diff');
      check((await git('status', '--porcelain')).stdout === before, 'ferry init without consent wrote nothing');
      const written = await init('--yes');
      check(written.code === 0, `ferry init --yes exited ${written.code}`);
      for (const file of [
        'app.config.js',
        'release.config.js',
        'fingerprint.config.js',
        '.github/workflows/publish.yml',
      ]) {
        check(fs.existsSync(path.join(app, file)), `ferry init wrote ${file}`);
      }
      check(
        fs.readFileSync(path.join(app, 'certs', 'certificate.pem'), 'utf8') === certificatePem,
        "the app embeds the server's certificate",
      );
      const again = await init();
      check(again.code === 0 && again.stdout.includes('nothing to change'), 'a second ferry init shows no diff');
      addCertificateFunnel(app, serverUrl);
      await git('add', '-A');
      const staged = (await git('diff', '--cached', '--name-only')).stdout;
      check(staged.includes('certs/certificate.pem'), 'the certificate is committed (despite the template’s *.pem)');
      await git('commit', '-q', '-m', PUBLISH_COMMIT_SUBJECT);
      return (await git('rev-parse', 'HEAD')).stdout.trim();
    });

    const ciEnv = cleanEnv({
      CI: 'true',
      APP_ENV: 'production',
      OTA_SERVER_URL: serverUrl,
      OTA_RELEASE_TOKEN: releaseToken,
      OTA_UPDATE_POLICY: '2',
      EXPO_NO_TELEMETRY: '1',
    });
    const ferry = (...args: string[]) =>
      run('npx', ['ferry', ...args], { cwd: app, env: ciEnv, echo: true, timeoutMs: SLOW_HANG_GUARD_MS });

    await phase('npx ferry doctor (before the first publish)', async () => {
      const doctor = await ferry('doctor');
      check(doctor.code === 0, `ferry doctor exited ${doctor.code}`);
      check(
        /^\[ok {2}\] the certificate matches the server's signature: certs\/certificate\.pem/m.test(doctor.stdout),
        "ferry doctor verified the certificate against the server's signature",
      );
      check(/^\[ok {2}\] the token works/m.test(doctor.stdout), 'ferry doctor: the token works');
      check(/no update yet \(204\)/.test(doctor.stdout), 'ferry doctor: no update yet on either track');
    });

    await phase('npx expo export --platform ios --platform android', async () => {
      const exported = await run('npx', ['expo', 'export', '--platform', 'ios', '--platform', 'android'], {
        cwd: app,
        env: ciEnv,
        echo: true,
        timeoutMs: SLOW_HANG_GUARD_MS,
      });
      check(exported.code === 0, `expo export exited ${exported.code}`);
    });
    const first = await phase('CI=true npx ferry publish --channel production --dist dist', () =>
      ferry('publish', '--channel', 'production', '--dist', path.join(app, 'dist')),
    );
    check(first.code === 0, `the first publish exited ${first.code}`);
    const firstReport = parsePublish(first.stdout);
    for (const platform of PLATFORMS) {
      const release = firstReport.released.get(platform);
      check(release, `${platform} was published`);
      check(
        release.runtimeVersion === RUNTIME_VERSIONS[platform],
        `${platform}: runtimeVersion ${release.runtimeVersion} comes from release.config.js (${RUNTIME_VERSIONS[platform]})`,
      );
      check((firstReport.uploads.get(platform)?.uploaded ?? 0) > 0, `${platform}: the first publish uploaded assets`);
    }

    const verified = await phase(
      'fetch each manifest as expo-updates does; verify signature and asset hashes',
      async () => {
        const result: Partial<
          Record<Platform, { manifest: ClientManifest; assets: number; bytes: number; launchBundle: Buffer }>
        > = {};
        const certificateInApp = fs.readFileSync(path.join(app, 'certs', 'certificate.pem'), 'utf8');
        for (const platform of PLATFORMS) {
          const release = firstReport.released.get(platform)!;
          const fetched = await fetchManifestLikeExpo(
            serverUrl,
            'expo',
            { platform, runtimeVersion: release.runtimeVersion, channel: 'production' },
            { certificatePem: certificateInApp, keyId: 'main' },
          );
          check(fetched.kind === 'update', `${platform}: the server serves an update`);
          const { manifest } = fetched;
          check(manifest.id === release.id, `${platform}: the manifest is the published release`);
          check(manifest.runtimeVersion === release.runtimeVersion, `${platform}: runtimeVersion`);
          const expoClient = manifest.extra.expoClient as
            | { slug?: string; updates?: { url?: string }; extra?: { appEnv?: string } }
            | undefined;
          check(expoClient?.slug === APP_NAME, `${platform}: extra.expoClient is the app's config`);
          check(
            expoClient?.extra?.appEnv === 'production',
            `${platform}: the config was evaluated for APP_ENV=production`,
          );
          check(
            expoClient?.updates?.url === `${serverUrl}/api/updates/manifest`,
            `${platform}: updates.url from @ferry/expo/config points at the server`,
          );
          check(manifest.extra.updatePolicy === 2, `${platform}: extra.updatePolicy from OTA_UPDATE_POLICY`);
          check(manifest.assets.length >= 1, `${platform}: the template's images are assets`);
          let bytes = 0;
          let launchBundle: Buffer | undefined;
          for (const asset of [manifest.launchAsset, ...manifest.assets]) {
            const { body } = await downloadAndVerify(asset);
            bytes += body.length;
            if (asset === manifest.launchAsset) {
              launchBundle = body;
              check(body.includes(SDK_MARKER), `${platform}: the bundle contains @ferry/expo's banner`);
              check(
                body.includes(CERTIFICATES_MARKER),
                `${platform}: the bundle contains @ferry/expo/certificates (the provider list)`,
              );
            }
          }
          check(launchBundle, `${platform}: the launch bundle was downloaded`);
          result[platform] = { manifest, assets: manifest.assets.length + 1, bytes, launchBundle };
          process.stdout.write(
            `${platform}: release ${manifest.id}: signature verified; ${manifest.assets.length + 1} asset(s), ${bytes} bytes, every hash matches\n`,
          );

          const listed = await ferry(
            'releases',
            '--channel',
            'production',
            '--platform',
            platform,
            '--runtime-version',
            release.runtimeVersion,
            '--json',
          );
          check(listed.code === 0, `${platform}: ferry releases exited ${listed.code}`);
          const parsed = JSON.parse(listed.stdout) as
            | Array<{ id: string; metadata: Record<string, unknown> }>
            | { releases: Array<{ id: string; metadata: Record<string, unknown> }> };
          const newest = (Array.isArray(parsed) ? parsed : parsed.releases)[0];
          check(newest?.id === release.id, `${platform}: ferry releases lists the release first`);
          check(newest.metadata.commit === headCommit, `${platform}: the release records the git commit`);
          check(newest.metadata.branch === 'main', `${platform}: the release records the branch`);
          check(typeof newest.metadata.fingerprint === 'string', `${platform}: the release stores the fingerprint`);
        }
        return result as Record<
          Platform,
          { manifest: ClientManifest; assets: number; bytes: number; launchBundle: Buffer }
        >;
      },
    );

    await phase(
      'npx ferry embedded upload --update-id … --bundle …; its patch to the release is made, and a 226 bspatches into the bundle',
      async () => {
        const authed = (route: string, init: RequestInit = {}) =>
          fetch(`${serverUrl}${route}`, {
            ...init,
            headers: { ...init.headers, authorization: `Bearer ${releaseToken}` },
          });
        const embedded: Partial<Record<Platform, { updateId: string; bundle: Buffer }>> = {};
        for (const platform of PLATFORMS) {
          // A build's embedded bundle that differs from the release by a string of the same length,
          // as a build of an earlier commit would; the server treats a bundle as bytes.
          const published = verified[platform].launchBundle;
          const bundle = Buffer.from(
            published.toString('latin1').replaceAll(SDK_MARKER, SDK_MARKER.toUpperCase()),
            'latin1',
          );
          check(!bundle.equals(published), `${platform}: the embedded bundle differs from the published one`);
          const file = path.join(work, 'embedded', `${platform}.bundle`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, bundle);
          const updateId = randomUUID();
          // No --runtime-version: the app config gives it, as `ferry publish` resolves it.
          const uploaded = await ferry(
            'embedded',
            'upload',
            '--platform',
            platform,
            '--update-id',
            updateId,
            '--bundle',
            file,
            '--json',
          );
          check(uploaded.code === 0, `${platform}: ferry embedded upload exited ${uploaded.code}`);
          const answer = JSON.parse(uploaded.stdout) as {
            created: boolean;
            updateId: string;
            runtimeVersion: string;
            patchesQueued: number;
          };
          check(
            answer.created && answer.updateId === updateId && answer.runtimeVersion === RUNTIME_VERSIONS[platform],
            `${platform}: ferry embedded upload registered ${updateId} on ${RUNTIME_VERSIONS[platform]} (${uploaded.stdout})`,
          );
          check(answer.patchesQueued === 1, `${platform}: one patch queued, to the release (${answer.patchesQueued})`);
          embedded[platform] = { updateId, bundle };
        }
        for (const platform of PLATFORMS) {
          const release = firstReport.released.get(platform)!;
          const { updateId, bundle } = embedded[platform]!;
          const patches = await settledPatches(
            { authed },
            { channel: 'production', platform, runtimeVersion: release.runtimeVersion },
            release.id,
            PATCH_SETTLE_MS,
          );
          const patch = patches.find((candidate) => candidate.base.updateId === updateId);
          check(
            patch?.base.kind === 'embedded' && patch.state === 'ready',
            `${platform}: the patch from the embedded bundle is ready (${JSON.stringify(patches)})`,
          );
          const { launchAsset } = verified[platform].manifest;
          const download = await downloadLaunchAssetLikeExpo(
            launchAsset.url,
            { currentUpdateId: updateId, requestedUpdateId: release.id, runningBundle: bundle, platform },
            launchAsset.hash,
          );
          check(
            download.kind === 'patch' && download.answer.status === 226,
            `${platform}: a device on the embedded update gets a 226 (${download.answer.status})`,
          );
          process.stdout.write(
            `${platform}: embedded ${updateId}: 226, ${download.answer.body.length} B patch (brotli full ${patch.fullBytes} B), bspatch gives the release's bundle\n`,
          );
        }
      },
    );

    await phase('npx ferry doctor --dist dist (both updates, their signatures, the export)', async () => {
      const doctor = await ferry('doctor', '--dist', path.join(app, 'dist'));
      check(doctor.code === 0, `ferry doctor exited ${doctor.code}`);
      for (const platform of PLATFORMS) {
        const release = firstReport.released.get(platform)!;
        check(
          doctor.stdout.includes(`update ${release.id}, signature verified with certs/certificate.pem`),
          `ferry doctor: ${platform} serves release ${release.id}, signed as the app verifies`,
        );
      }
      check(/^\[ok {2}\] the export contains both platforms/m.test(doctor.stdout), 'ferry doctor: the export');
    });

    await phase(`npx ferry gate --base <template commit> (native-affected, same fingerprint)`, async () => {
      const gate = await ferry('gate', '--base', templateBase);
      check(gate.code === 0, `the gate exited ${gate.code}`);
      check(/^native-affected: affected$/m.test(gate.stdout), 'adding Ferry is a native-affecting change');
      for (const platform of PLATFORMS) {
        check(
          gate.stdout.includes(
            `${platform}: pass — ${platform}: the native fingerprint of ${RUNTIME_VERSIONS[platform]} is unchanged`,
          ),
          `${platform}: the gate compared the fingerprint with the production baseline and found it unchanged`,
        );
      }
      check(/^gate: passed$/m.test(gate.stdout), 'the gate passed');
    });

    await phase('npx ferry gate --server <nothing listens> (fails safe; --allow-unreachable passes)', async () => {
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      const gate = (...extra: string[]) =>
        ferry('gate', '--base', templateBase, '--platform', 'ios', '--server', nowhere, ...extra);
      const blocked = await gate();
      check(blocked.code === 1, `the gate against an unreachable server exited ${blocked.code}`);
      check(
        /^::error title=Ferry gate \(ios\)::ios: the baseline could not be read: cannot reach .*--allow-unreachable/m.test(
          blocked.stdout,
        ),
        'the error annotation names the unreachable server and --allow-unreachable',
      );
      const allowed = await gate('--allow-unreachable');
      check(allowed.code === 0, `the gate with --allow-unreachable exited ${allowed.code}`);
      check(
        /^::warning title=Ferry gate \(ios\)::.*passing without a decision \(--allow-unreachable\)$/m.test(
          allowed.stdout,
        ),
        'with --allow-unreachable the gate passes with a warning annotation saying so',
      );
    });

    const objects = path.join(dataDir, 'objects');
    const objectsBefore = countFiles(fs.existsSync(objects) ? objects : dataDir);
    // The same export again (a re-run of the publish job, or the second platform's retry): every asset
    // is already stored. A fresh `expo export` is not byte-identical (see the report), so --dist.
    const second = await phase('publish the same export again (--dist)', () =>
      ferry('publish', '--channel', 'production', '--dist', path.join(app, 'dist')),
    );
    check(second.code === 0, `the second publish exited ${second.code}`);
    const secondReport = parsePublish(second.stdout);
    for (const platform of PLATFORMS) {
      const uploads = secondReport.uploads.get(platform);
      check(uploads, `${platform}: the second publish reported its uploads`);
      check(
        uploads.uploaded === 0 && uploads.uploadedSize === '0 B',
        `${platform}: the second publish sent 0 asset bytes (uploaded ${uploads.uploaded}, ${uploads.uploadedSize})`,
      );
      check(uploads.skipped > 0, `${platform}: the assets were found already stored`);
      check(secondReport.released.has(platform), `${platform}: the second publish registered a release`);
    }
    check(
      countFiles(fs.existsSync(objects) ? objects : dataDir) === objectsBefore,
      'the second publish wrote no object',
    );

    // ── Listing across tracks and the audit export, as a team reads them after a publish.
    await phase('npx ferry releases (no track named) and npx ferry audit', async () => {
      const published = [...firstReport.released.values(), ...secondReport.released.values()].map((r) => r.id);
      const listed = await ferry('releases', '--json');
      check(listed.code === 0, `ferry releases --json exited ${listed.code}`);
      const { releases, nextCursor } = JSON.parse(listed.stdout) as {
        releases: Array<{ id: string; platform: string; metadata: { message?: string } }>;
        nextCursor: string | null;
      };
      check(nextCursor === null, 'ferry releases --json: one page holds every release');
      for (const id of published) {
        const release = releases.find((candidate) => candidate.id === id);
        check(release, `ferry releases (all tracks) lists release ${id}`);
        check(
          release.metadata.message === PUBLISH_COMMIT_SUBJECT,
          `release ${id} carries the commit subject as its message (${release.metadata.message})`,
        );
      }
      check(new Set(releases.map((r) => r.platform)).size === 2, 'ferry releases lists both platforms');
      const table = await ferry('releases', '--channel', 'production');
      check(table.code === 0, `ferry releases --channel production exited ${table.code}`);
      check(/\bTRACK\b.*\bMESSAGE\b/.test(table.stdout), 'the table across tracks has TRACK and MESSAGE columns');
      check(table.stdout.includes(PUBLISH_COMMIT_SUBJECT), 'the table shows the message');

      const audit = await ferry('audit');
      check(audit.code === 0, `ferry audit exited ${audit.code}`);
      const events = audit.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { seq: number; type: string; releaseId: string | null });
      for (const id of published) {
        check(
          events.some((event) => event.type === 'release.created' && event.releaseId === id),
          `ferry audit has release.created for ${id}`,
        );
      }
      check(
        events.every((event, i) => i === 0 || event.seq > events[i - 1]!.seq),
        'ferry audit prints events oldest first',
      );
      const filtered = await ferry('audit', '--type', 'release.created', '--platform', 'ios', '--table');
      check(filtered.code === 0, `ferry audit --type … --table exited ${filtered.code}`);
      const rows = filtered.stdout.trim().split('\n');
      check(/^SEQ\s+TIME\s+TYPE/.test(rows[0] ?? ''), 'ferry audit --table prints a header');
      check(rows.length === 3, `ferry audit --type release.created --platform ios: 2 rows (got ${rows.length - 1})`);
    });

    // ── Release control from the installed CLI: a staged publish, its rollout, a roll back to embedded.
    await phase('npx ferry publish --rollout, ferry rollout, ferry rollback --to-embedded', async () => {
      const staged = await ferry(
        'publish',
        '--channel',
        'production',
        '--dist',
        path.join(app, 'dist'),
        '--rollout',
        '10',
        '--halt-on-failure-rate',
        '2%',
      );
      check(staged.code === 0, `the staged publish exited ${staged.code}`);
      check(staged.stdout.includes('rolling out to 10% of devices'), 'the staged publish says it rolls out to 10 %');
      const ios = parsePublish(staged.stdout).released.get('ios');
      check(ios, 'the staged publish registered an iOS release');
      const shown = await ferry('rollout', ios.id, '--json');
      check(shown.code === 0, `ferry rollout exited ${shown.code}`);
      const rollout = JSON.parse(shown.stdout) as { percent: number; state: string; haltRule: { failureRate: number } };
      check(
        rollout.percent === 10 && rollout.state === 'running' && rollout.haltRule.failureRate === 0.02,
        `ferry rollout shows 10 % running with the 2 % rule (${shown.stdout})`,
      );
      const widened = await ferry('rollout', ios.id, '--percent', '50');
      check(widened.code === 0 && widened.stdout.includes('running at 50%'), 'ferry rollout --percent 50 widens it');
      const completed = await ferry('rollout', ios.id, '--complete');
      check(completed.code === 0 && completed.stdout.includes('state:    complete'), 'ferry rollout --complete');
      const listed = await ferry('releases', '--platform', 'ios');
      check(
        /\bROLLOUT\b/.test(listed.stdout) && listed.stdout.includes('complete'),
        'ferry releases shows the rollout',
      );
      const android = firstReport.released.get('android')!;
      const embedded = await ferry(
        'rollback',
        '--channel',
        'production',
        '--platform',
        'android',
        '--runtime-version',
        android.runtimeVersion,
        '--to-embedded',
      );
      check(embedded.code === 0, `ferry rollback --to-embedded exited ${embedded.code}`);
      check(
        embedded.stdout.includes('back to the embedded bundle'),
        'ferry rollback --to-embedded reports the directive',
      );
    });

    // ── A release group from the installed CLI: the two-platform publish promoted to the other channel,
    // then widened on both platforms at once; checked through the API.
    await phase('npx ferry promote --group, ferry rollout --group', async () => {
      const sourceGroup = /^release group ([0-9a-f-]{36}): /m.exec(second.stdout)?.[1];
      check(sourceGroup, 'the two-platform publish names its release group');
      const promoted = await ferry(
        'promote',
        '--group',
        sourceGroup,
        '--to',
        'development',
        '--rollout',
        '20',
        '--json',
      );
      check(promoted.code === 0, `ferry promote --group exited ${promoted.code}: ${promoted.stderr}`);
      const { groupId } = JSON.parse(promoted.stdout) as { groupId: string };
      const widened = await ferry('rollout', '--group', groupId, '--percent', '60');
      check(widened.code === 0, `ferry rollout --group exited ${widened.code}: ${widened.stderr}`);
      const authed = { authorization: `Bearer ${releaseToken}` };
      const listed = (await (
        await fetch(`${serverUrl}/api/updates/releases?groupId=${groupId}`, { headers: authed })
      ).json()) as {
        releases: Array<{ id: string; channel: string; platform: string; metadata: { promotedFrom?: string } }>;
      };
      const sources = [...secondReport.released.values()].map((release) => release.id).sort();
      check(
        listed.releases.length === 2 &&
          listed.releases.every((release) => release.channel === 'development') &&
          listed.releases
            .map((release) => release.metadata.promotedFrom)
            .sort()
            .join() === sources.join(),
        `the promoted group holds both platforms on development, each from its source (${JSON.stringify(listed.releases)})`,
      );
      for (const release of listed.releases) {
        const { rollout } = (await (
          await fetch(`${serverUrl}/api/updates/rollouts/${release.id}`, { headers: authed })
        ).json()) as { rollout: { percent: number; state: string } };
        check(
          rollout.percent === 60 && rollout.state === 'running',
          `${release.platform}: the group rollout runs at 60 % (${JSON.stringify(rollout)})`,
        );
      }
    });

    // ── The release console of the installed server, with a token from its own `ferry-server tokens`.
    await phase('npx ferry-server tokens create; the console at /console signs in and lists the tracks', async () => {
      const created = await runOk(
        'npx',
        ['ferry-server', 'tokens', 'create', '--name', 'e2e-viewer', '--role', 'viewer'],
        { cwd: serverDir, env: cleanEnv({ DATA_DIR: dataDir }), timeoutMs: HANG_GUARD_MS },
      );
      const token = created.stdout.match(/ferry_op_[A-Za-z0-9_-]+/)?.[0];
      check(token, `ferry-server tokens create printed a token (${created.stdout.trim()})`);
      const page = await fetch(`${serverUrl}/console/`);
      const html = await page.text();
      const csp = page.headers.get('content-security-policy') ?? '';
      check(
        page.status === 200 && html.includes('<div id="root"'),
        `GET /console/ serves the console (${page.status})`,
      );
      check(
        csp.includes("default-src 'self'") && !csp.includes('unsafe-inline'),
        `the console has a strict CSP (${csp})`,
      );
      const signIn = await fetch(`${serverUrl}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
        body: JSON.stringify({ token }),
      });
      const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
      check(signIn.status === 200 && cookie, `the viewer token signs in (${signIn.status})`);
      const refused = await fetch(`${serverUrl}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
        body: JSON.stringify({ token: releaseToken }),
      });
      check(refused.status === 403, `the release token is not a console login (${refused.status})`);
      const tracks = await fetch(`${serverUrl}/api/console/tracks`, { headers: { cookie } });
      const listed = (await tracks.json()) as { tracks: Array<{ platform: string; runtimeVersion: string }> };
      check(
        PLATFORMS.every((platform) =>
          listed.tracks.some((t) => t.platform === platform && t.runtimeVersion === RUNTIME_VERSIONS[platform]),
        ),
        `the console lists both published tracks (${JSON.stringify(listed.tracks.map((t) => t.platform))})`,
      );
      const viewerRollback = await fetch(`${serverUrl}/api/updates/directives`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ferry-console': '1', cookie },
        body: JSON.stringify({ type: 'rollBackToEmbedded', channel: 'production', platform: 'ios' }),
      });
      check(viewerRollback.status === 403, `a viewer cannot roll back (${viewerRollback.status})`);
    });

    // ── A certificate swap: every installed build would reject every update signed for the new one.
    await phase('a certificate swap: ferry publish refuses it, ferry gate blocks it', async () => {
      const otherKeys = path.join(work, 'other-keys');
      const generated = await ferry('keys', 'generate', '--out', otherKeys);
      check(generated.code === 0, `ferry keys generate exited ${generated.code}`);
      fs.copyFileSync(path.join(otherKeys, 'certificate.pem'), path.join(app, 'certs', 'certificate.pem'));
      const before = (await git('rev-parse', 'HEAD')).stdout.trim();
      await git('commit', '-q', '-am', 'Swap the code-signing certificate');
      const refused = await ferry('publish', '--channel', 'production', '--dist', path.join(app, 'dist'));
      check(refused.code === 1, `the publish with another certificate exited ${refused.code}`);
      check(
        /Refusing to publish updates the app's builds would reject\. certs\/certificate\.pem does not verify this server's signatures/.test(
          refused.stderr,
        ),
        'ferry publish names the certificate the server does not sign for',
      );
      const gate = await ferry('gate', '--base', before);
      check(gate.code === 1, `the gate exited ${gate.code}`);
      for (const platform of PLATFORMS) {
        check(
          new RegExp(`^${platform}: block — `, 'm').test(gate.stdout),
          `${platform}: the gate blocks the certificate swap as a native change`,
        );
      }
      check(/^gate: blocked$/m.test(gate.stdout), 'the gate blocked');
    });

    // ── A second app on the same installed server: its own key (the swapped certificate's, imported),
    // URL and token; the first app's devices, token and URL keep working unchanged.
    await phase('npx ferry-server apps create shop; the app publishes to it with its own token and key', async () => {
      const otherKeys = path.join(work, 'other-keys');
      const created = await runOk(
        'npx',
        [
          'ferry-server',
          'apps',
          'create',
          'shop',
          '--name',
          'Shop',
          '--key-file',
          path.join(otherKeys, 'private-key.pem'),
          '--certificate-file',
          path.join(otherKeys, 'certificate.pem'),
          '--json',
        ],
        { cwd: serverDir, env: cleanEnv({ DATA_DIR: dataDir }), timeoutMs: HANG_GUARD_MS },
      );
      const shop = JSON.parse(created.stdout) as { releaseToken: string; app: { manifestPath: string } };
      check(shop.app.manifestPath === '/api/apps/shop/manifest', `the app's updates path (${shop.app.manifestPath})`);
      // The app config names the app: its builds ask /api/apps/shop/manifest, with the swapped certificate.
      edit(path.join(app, 'app.config.js'), 'keyid: KEY_ID,', "keyid: KEY_ID,\n        app: 'shop',");
      await git('commit', '-q', '-am', 'Move the app to its own app on the server');
      const shopEnv = { ...ciEnv, OTA_RELEASE_TOKEN: shop.releaseToken };
      const shopFerry = (...args: string[]) =>
        run('npx', ['ferry', ...args], { cwd: app, env: shopEnv, echo: true, timeoutMs: SLOW_HANG_GUARD_MS });
      // The first app's token on the second app: refused, naming what to do.
      const wrongToken = await ferry('releases', '--app', 'shop');
      check(
        wrongToken.code === 1 && /APP_FORBIDDEN|belongs to app 'default'/.test(wrongToken.stderr),
        "the first app's token is refused on shop",
      );
      const published = await shopFerry('publish', '--channel', 'production', '--dist', path.join(app, 'dist'));
      check(published.code === 0, `the publish to shop exited ${published.code}`);
      const report = parsePublish(published.stdout);
      const certificateInApp = fs.readFileSync(path.join(app, 'certs', 'certificate.pem'), 'utf8');
      for (const platform of PLATFORMS) {
        const release = report.released.get(platform);
        check(release, `${platform} was published to shop`);
        const track = { platform, runtimeVersion: release.runtimeVersion, channel: 'production' };
        const response = await fetch(`${serverUrl}/api/apps/shop/manifest`, { headers: clientHeaders('expo', track) });
        const answer = {
          status: response.status,
          headers: response.headers,
          body: Buffer.from(await response.arrayBuffer()),
        };
        const fetched = await checkManifestLikeExpo('expo', answer, {
          certificatePem: certificateInApp,
          keyId: 'main',
        });
        check(
          fetched.kind === 'update' && fetched.manifest.id === release.id,
          `${platform}: shop's devices get shop's release, signed with shop's key`,
        );
        for (const asset of [fetched.manifest.launchAsset, ...fetched.manifest.assets]) await downloadAndVerify(asset);
        // The first app's devices: its URL, its key, its release, unchanged.
        const first = await fetchManifestLikeExpo(serverUrl, 'expo', track, { certificatePem, keyId: 'main' });
        check(
          first.kind !== 'update' || first.manifest.id !== release.id,
          `${platform}: the first app's devices never get shop's release`,
        );
      }
      // Each token lists only its own app's releases.
      const listed = await shopFerry('releases', '--json');
      const ids = (JSON.parse(listed.stdout) as { releases: Array<{ id: string }> }).releases.map((r) => r.id);
      check(
        ids.length === 2 && PLATFORMS.every((p) => ids.includes(report.released.get(p)!.id)),
        'shop lists its two releases only',
      );
    });

    // ── Sizes.
    const ferryScope = diskUsage([path.join(app, 'node_modules', '@ferry')]);
    const cliClosure = dependencyClosure(app, '@ferry/cli');
    const cliUsage = diskUsage(
      cliClosure.map((found) => found.dir),
      { skipNestedNodeModules: true },
    );
    const appManifest = readJson<PackageManifest>(path.join(app, 'package.json'));
    const others = dependencyClosure(
      app,
      [...Object.keys(appManifest.dependencies ?? {}), ...Object.keys(appManifest.devDependencies ?? {})].filter(
        (name) => name !== '@ferry/cli',
      ),
    );
    const shared = new Set(others.map((found) => found.dir));
    const cliOnly = cliClosure.filter((found) => !shared.has(found.dir));
    const cliOnlyUsage = diskUsage(
      cliOnly.map((found) => found.dir),
      { skipNestedNodeModules: true },
    );
    const appModules = diskUsage([path.join(app, 'node_modules')]);
    const serverModules = diskUsage([path.join(serverDir, 'node_modules')]);
    const serverPackages = installedPackages(serverDir);
    const largestCli = cliClosure
      .map((found) => ({ found, usage: diskUsage([found.dir], { skipNestedNodeModules: true }) }))
      .sort((a, b) => b.usage.bytes - a.usage.bytes)
      .slice(0, 5)
      .map(({ found, usage }) => `${found.name}@${found.version} ${mib(usage.bytes)}`);

    const total = (performance.now() - started) / 1000;
    const out = (line = '') => process.stdout.write(`${line}\n`);
    out('\n── e2e:registry passed\n');
    const width = Math.max(...timings.map(([name]) => name.length), 'total'.length);
    out(`${'phase'.padEnd(width)}  seconds`);
    for (const [name, seconds] of timings) out(`${name.padEnd(width)}  ${seconds.toFixed(1).padStart(7)}`);
    out(`${'total'.padEnd(width)}  ${total.toFixed(1).padStart(7)}`);
    out();
    const sizes: Array<[string, string]> = [
      ['app node_modules/@ferry', `${mib(ferryScope.bytes)} (${ferryScope.files} files)`],
      ['@ferry/cli and its dependency tree, in the app', `${cliClosure.length} packages, ${mib(cliUsage.bytes)}`],
      [
        '  of which only the CLI needs (not shared with the app)',
        `${cliOnly.length} packages, ${mib(cliOnlyUsage.bytes)}`,
      ],
      ['  largest in the CLI tree', largestCli.join(', ')],
      ['app node_modules (all)', `${installedPackages(app).length} packages, ${mib(appModules.bytes)}`],
      ['server folder node_modules', `${serverPackages.length} packages, ${mib(serverModules.bytes)}`],
    ];
    const sizeWidth = Math.max(...sizes.map(([name]) => name.length));
    out(`${'installed (du)'.padEnd(sizeWidth)}  size`);
    for (const [name, value] of sizes) out(`${name.padEnd(sizeWidth)}  ${value}`);
    out();
    for (const platform of PLATFORMS) {
      const { manifest, assets, bytes } = verified[platform];
      out(`${platform}: release ${manifest.id} (${manifest.runtimeVersion}), ${assets} asset(s), ${bytes} bytes`);
    }
  } finally {
    await cleanUp();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
