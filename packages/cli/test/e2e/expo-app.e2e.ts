/**
 * npm run e2e:expo — the publisher end to end on a real Expo app (not part of `npm test`: it
 * installs the example app and runs Metro, which takes minutes).
 *
 * 1. installs examples/expo-app (npm ci, its own lockfile);
 * 2. starts the server as `npm start` does, on its embedded defaults in a temporary DATA_DIR;
 * 3. CI=true ferry publish --channel production (real `expo export`, both platforms);
 * 4. checks each served manifest as expo-updates would: signature with the server's certificate,
 *    id, runtimeVersion, extra.expoClient, and the hash of every downloaded asset;
 * 5. re-publishes the same export and checks that no asset byte is uploaded;
 * 6. changes the evaluated app config (so the native fingerprint changes) and checks that the
 *    guard's 409 comes back as exit code 2 with the remedy.
 */
import { type SpawnOptions, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ClientManifest,
  downloadAndVerify,
  fetchManifestLikeExpo,
} from '../../../server/test/support/expo-client.js';
import { spawnServer } from '../../../server/test/support/spawn-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const appDir = path.join(repoRoot, 'examples/expo-app');
const ferryBin = path.join(repoRoot, 'packages/cli/bin/ferry.js');
const PLATFORMS = ['ios', 'android'] as const;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: SpawnOptions & { echo?: boolean } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e check failed: ${message}`);
}

const timings: Array<[string, number]> = [];
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  process.stdout.write(`\n── ${name}\n`);
  const started = performance.now();
  const result = await work();
  timings.push([name, (performance.now() - started) / 1000]);
  return result;
}

const countFiles = (dir: string): number =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length
    : 0;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-e2e-'));
  const certificateInApp = path.join(appDir, 'certs', 'certificate.pem');
  const hadCertificate = fs.existsSync(certificateInApp);
  const distDir = path.join(appDir, 'dist');
  const started = performance.now();
  let server: ReturnType<typeof spawnServer> | undefined;
  try {
    await step('install examples/expo-app (npm ci)', async () => {
      const result = await run('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: appDir,
        env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' },
        echo: true,
      });
      check(result.code === 0, `npm ci in ${appDir} exited ${result.code}`);
    });

    const port = await freePort();
    const serverUrl = `http://127.0.0.1:${port}`;
    server = await step('start the server on its embedded defaults', async () => {
      const spawned = spawnServer({
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: serverUrl,
        LOG_LEVEL: 'info',
      });
      await spawned.listening;
      return spawned;
    });
    const token = fs.readFileSync(path.join(dataDir, 'dev', 'release-token'), 'utf8').trim();
    const certificatePem = fs.readFileSync(path.join(dataDir, 'dev', 'code-signing', 'certificate.pem'), 'utf8');
    // The build would embed this certificate; put it where app.config.ts points.
    if (!hadCertificate) fs.writeFileSync(certificateInApp, certificatePem);

    const publishEnv = {
      ...process.env,
      CI: 'true',
      APP_ENV: 'production',
      OTA_SERVER_URL: serverUrl,
      OTA_RELEASE_TOKEN: token,
      OTA_UPDATE_POLICY: '2',
      GITHUB_ACTOR: 'e2e',
      GITHUB_RUN_ID: String(process.pid),
    };
    const ferry = (args: string[], env: NodeJS.ProcessEnv = publishEnv) =>
      run(process.execPath, [ferryBin, ...args], { cwd: appDir, env, echo: true });

    const first = await step('CI=true ferry publish --channel production (expo export, both platforms)', () =>
      ferry(['publish', '--channel', 'production']),
    );
    check(first.code === 0, `the first publish exited ${first.code}`);
    const published = new Map(
      [...first.stdout.matchAll(/^(ios|android): published release ([0-9a-f-]{36}) to production\/\w+\/(.+)$/gm)].map(
        (m) => [m[1]!, { id: m[2]!, runtimeVersion: m[3]! }],
      ),
    );
    check(published.size === 2, 'both platforms were published');
    check(published.get('ios')?.runtimeVersion === '1.0.0(1)', 'ios runtimeVersion comes from the app config');
    check(published.get('android')?.runtimeVersion === '1.0.0(2)', 'android runtimeVersion comes from the app config');

    const manifests = await step('check each manifest as expo-updates would', async () => {
      const checked: Record<string, { manifest: ClientManifest; assets: number; bytes: number }> = {};
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
        for (const asset of [manifest.launchAsset, ...manifest.assets]) {
          bytes += (await downloadAndVerify(asset)).body.length;
        }
        checked[platform] = { manifest, assets: manifest.assets.length + 1, bytes };
        process.stdout.write(
          `${platform}: signature verified; ${manifest.assets.length + 1} asset(s), ${bytes} bytes, every hash matches\n`,
        );
      }
      return checked;
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

    const refused = await step('a native change on the same runtimeVersion is refused (exit 2)', () =>
      ferry(['publish', '--channel', 'production', '--platform', 'ios', '--dist', distDir], {
        ...publishEnv,
        // Another API address changes the evaluated config, hence the native fingerprint.
        FERRY_PRODUCTION_API_URL: 'https://other-api.example.com',
      }),
    );
    check(refused.code === 2, `a guard refusal exits 2 (got ${refused.code})`);
    check(/higher build number/.test(refused.stderr), 'the remedy is printed');

    const total = (performance.now() - started) / 1000;
    process.stdout.write('\n── e2e:expo passed\n\n');
    const width = Math.max(...timings.map(([name]) => name.length));
    for (const [name, seconds] of timings) process.stdout.write(`${name.padEnd(width)}  ${seconds.toFixed(1)} s\n`);
    process.stdout.write(`${'total'.padEnd(width)}  ${total.toFixed(1)} s\n`);
    for (const platform of PLATFORMS) {
      const m = manifests[platform]!;
      process.stdout.write(`${platform}: release ${m.manifest.id}, ${m.assets} asset(s), ${m.bytes} bytes\n`);
    }
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(distDir, { recursive: true, force: true });
    if (!hadCertificate) fs.rmSync(certificateInApp, { force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
