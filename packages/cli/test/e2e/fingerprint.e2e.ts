/**
 * npm run e2e:fingerprint — Ferry's fingerprint equals Expo's own, on Expo's default template
 * (issue 18, item 9). Not part of `npm test`: it creates and installs an Expo app (about a minute
 * or two), then runs Expo's fingerprint some twenty times. `npm run e2e:expo` makes the same check on
 * examples/expo-app against the value the server stored.
 *
 * 1. `npx create-expo-app@5.0.0 --template expo-template-default@57.0.28` in a temporary folder
 *    outside the checkout (SDK 57: SDK 58 needs Node 22), expo pinned to the example app's locked
 *    version, `npm install`; without expo-updates,
 *    Ferry refuses to fingerprint (it never falls back to a copy of its own);
 * 2. `npx expo install expo-updates` (what a team adds to use OTA updates);
 * 3. the template as created (no fingerprint.config.js): Ferry's value equals
 *    `npx expo-updates fingerprint:generate --platform <p>` for iOS and Android;
 * 4. a release control file, a fingerprint.config.js with Ferry's preset (the app installs
 *    @ferry/expo in real life; here the config requires the checkout's preset by path, which does
 *    not change what is hashed) and code signing in app.json (an updates URL, the certificate
 *    certs/certificate.pem and its key id): equal again, for both platforms;
 * 5. the preset covers every input the spec lists (Publisher rule 5), and the embedded certificate,
 *    its key id and the updates URL (issue 35): each one, changed alone, changes the expo-updates
 *    fingerprint (and is undone at once); a JavaScript-only change leaves it alone;
 * 6. every change undone: both platforms' values are back to those of step 4, and Ferry's still
 *    equal expo-updates'.
 *
 * E2E_KEEP=1 keeps the temporary folder; E2E_TEMPLATE_DIR=<dir> reuses an app an earlier run kept
 * (steps 1–2 skipped).
 */
import { type SpawnOptions, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../../src/cli-error.js';
import {
  computeFingerprint,
  type FingerprintPlatform,
  type FingerprintSource,
} from '../../src/fingerprint/app-fingerprint.js';
import { createCodeSigningPair } from '../../src/keys/code-signing-keys.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const presetModule = path.join(repoRoot, 'packages/expo/config/fingerprint.cjs');
/** The newest create-expo-app, and the SDK 57 default template (the registry here has no sdk-57 tag). */
const CREATE_EXPO_APP = 'create-expo-app@5.0.0';
const TEMPLATE = 'expo-template-default@57.0.28';
/**
 * The expo the example app locks. The template asks for `~57.0.26`, which npm resolves to the newest
 * 57.x the registry lists; that release's bundledNativeModules.json then makes `expo install` ask for
 * an expo-updates the registry may not hold yet (expo 57.0.33 wants `~57.0.28`, absent here).
 */
const EXPO = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'examples/expo-app/package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string }>;
  }
).packages['node_modules/expo']?.version;
const PLATFORMS: FingerprintPlatform[] = ['ios', 'android'];
/** The certificate the app embeds, and another one (a swap every installed build would reject). */
const CERTIFICATE = createCodeSigningPair({ commonName: 'e2e app', validityYears: 1 }).certificatePem;
const OTHER_CERTIFICATE = createCodeSigningPair({ commonName: 'e2e other', validityYears: 1 }).certificatePem;
const keep = process.env.E2E_KEEP === '1';
const reuse = process.env.E2E_TEMPLATE_DIR;

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

/** This process's environment without what `npm run` adds about the checkout (see expo-app.e2e.ts). */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower === 'init_cwd' || lower === 'npm_config_local_prefix') continue;
    if (lower.startsWith('npm_') && !lower.startsWith('npm_config_')) continue;
    env[key] = value;
  }
  env.npm_config_nodedir = process.env.npm_config_nodedir ?? '/usr';
  return env;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`e2e check failed: ${message}`);
}

const timings: Array<{ name: string; seconds: number }> = [];
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  process.stdout.write(`\n── ${name}\n`);
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings.push({ name, seconds: (performance.now() - started) / 1000 });
  }
}

const isInside = (dir: string, parent: string) => {
  const relative = path.relative(parent, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

async function main(): Promise<void> {
  const started = performance.now();
  const work = reuse ? path.dirname(path.resolve(reuse)) : fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-e2e-fp-'));
  const appDir = reuse ? path.resolve(reuse) : path.join(work, 'template');
  const env = childEnv();
  const read = (file: string) => fs.readFileSync(path.join(appDir, file), 'utf8');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true });
    fs.writeFileSync(path.join(appDir, file), text);
  };
  // biome-ignore lint/suspicious/noExplicitAny: package.json and app.json are edited in place, field by field.
  type Json = Record<string, any>;
  const editJson = (file: string, edit: (json: Json) => void) => {
    const json = JSON.parse(read(file)) as Json;
    edit(json);
    write(file, `${JSON.stringify(json, null, 2)}\n`);
  };

  /** What `npx expo-updates fingerprint:generate --platform <p>` prints in the app. */
  const expoUpdates = async (
    platform: FingerprintPlatform,
  ): Promise<{ hash: string; sources: FingerprintSource[] }> => {
    const result = await run('npx', ['--no', '--', 'expo-updates', 'fingerprint:generate', '--platform', platform], {
      cwd: appDir,
      env,
    });
    check(
      result.code === 0,
      `npx expo-updates fingerprint:generate --platform ${platform} exited ${result.code}: ${result.stderr}`,
    );
    return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as { hash: string; sources: FingerprintSource[] };
  };
  /** Ferry's value (what publish and gate send and compare), and Expo's, for one platform. */
  const compare = async (platform: FingerprintPlatform, label: string): Promise<string> => {
    const notes: string[] = [];
    const ferry = await computeFingerprint(appDir, platform, { log: (line) => notes.push(line) });
    const expo = await expoUpdates(platform);
    check(
      ferry.hash === expo.hash,
      `${label}, ${platform}: Ferry computed ${ferry.hash}, expo-updates prints ${expo.hash}`,
    );
    process.stdout.write(
      `${label}, ${platform}: Ferry ${ferry.hash} = expo-updates ${expo.hash} (${expo.sources.length} sources)\n`,
    );
    for (const note of notes.slice(1)) process.stdout.write(`  ${note}\n`);
    return ferry.hash;
  };
  const hashes: Record<string, string> = {};

  try {
    check(!isInside(appDir, repoRoot), `the app folder ${appDir} must be outside the checkout ${repoRoot}`);

    if (!reuse) {
      await step(`npx ${CREATE_EXPO_APP} --template ${TEMPLATE}, npm install`, async () => {
        const created = await run(
          'npx',
          ['--yes', CREATE_EXPO_APP, 'template', '--template', TEMPLATE, '--no-install'],
          { cwd: work, env, echo: true },
        );
        check(created.code === 0, `create-expo-app exited ${created.code}`);
        // As in examples/expo-app (docs/publishing.md, "The example app"): the registry used here lacks @expo/env 2.4.4,
        // which newer expo-constants 57 releases need; 57.0.22 is the last that installs.
        check(EXPO, 'examples/expo-app/package-lock.json locks expo');
        editJson('package.json', (json) => {
          json.dependencies.expo = EXPO;
          json.dependencies['expo-constants'] = '57.0.22';
          json.overrides = { 'expo-constants': '$expo-constants' };
        });
        const installed = await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: appDir, env, echo: true });
        check(installed.code === 0, `npm install exited ${installed.code}`);
      });

      await step('without expo-updates, Ferry refuses to fingerprint', async () => {
        const refused = await computeFingerprint(appDir, 'ios', { log: () => {} }).then(
          () => undefined,
          (error: unknown) => error,
        );
        check(
          refused instanceof CliError && /expo-updates is not installed/.test(refused.message),
          `Ferry refuses clearly (got ${refused instanceof Error ? refused.message : 'a fingerprint'})`,
        );
        process.stdout.write(`refused: ${refused.message}\n`);
      });

      await step('npx expo install expo-updates', async () => {
        const added = await run('npx', ['--no', '--', 'expo', 'install', 'expo-updates'], {
          cwd: appDir,
          env,
          echo: true,
        });
        check(added.code === 0, `expo install expo-updates exited ${added.code}`);
      });
    }

    const version = (name: string) =>
      (JSON.parse(read(`node_modules/${name}/package.json`)) as { version: string }).version;
    process.stdout.write(
      `\nexpo ${version('expo')}, expo-updates ${version('expo-updates')}, @expo/fingerprint ${version('@expo/fingerprint')}, react-native ${version('react-native')}\n`,
    );

    await step('the template as created (no fingerprint.config.js): Ferry = expo-updates', async () => {
      fs.rmSync(path.join(appDir, 'fingerprint.config.js'), { force: true });
      fs.rmSync(path.join(appDir, 'release.config.js'), { force: true });
      // A kept app (E2E_TEMPLATE_DIR) may hold step 4's code signing: back to the template.
      fs.rmSync(path.join(appDir, 'certs'), { recursive: true, force: true });
      editJson('app.json', (json) => delete json.expo.updates);
      for (const platform of PLATFORMS) hashes[`template ${platform}`] = await compare(platform, 'template');
    });

    await step("with a release control file, Ferry's preset and code signing: Ferry = expo-updates", async () => {
      write(
        'release.config.js',
        "const APP_VERSION = '1.0.0';\nconst ANDROID_VERSION_CODE = 1;\nconst IOS_BUILD_NUMBER = '1';\n" +
          'const IS_PRERELEASE = false;\nmodule.exports = { APP_VERSION, ANDROID_VERSION_CODE, IOS_BUILD_NUMBER, IS_PRERELEASE };\n',
      );
      write(
        'fingerprint.config.js',
        `// A team writes require('@ferry/expo/fingerprint'); the e2e takes the checkout's preset.\n` +
          `const { ferryFingerprintConfig } = require(${JSON.stringify(presetModule)});\n` +
          'module.exports = ferryFingerprintConfig(__dirname);\n',
      );
      // What updatesConfig() puts in a Ferry app's config: the updates URL, the certificate, its key id.
      write('certs/certificate.pem', CERTIFICATE);
      editJson('app.json', (json) => {
        json.expo.updates = {
          url: 'https://api.example.com/api/updates/manifest',
          codeSigningCertificate: './certs/certificate.pem',
          codeSigningMetadata: { keyid: 'main', alg: 'rsa-v1_5-sha256' },
        };
      });
      for (const platform of PLATFORMS) hashes[`preset ${platform}`] = await compare(platform, 'preset');
    });

    await step('the preset covers every input the spec lists: each change alone moves the fingerprint', async () => {
      const ios = await expoUpdates('ios');
      const android = await expoUpdates('android');
      /** A file the iOS (or Android) fingerprint hashes for an autolinked native module of the template. */
      const nativeFile = (sources: FingerprintSource[], platform: 'ios' | 'android'): string => {
        const dir = sources.find(
          (s) => s.type === 'dir' && /^node_modules\/expo-image\//.test(String(s.filePath)) && s.hash !== null,
        )?.filePath as string | undefined;
        check(dir, `the ${platform} fingerprint hashes expo-image's native folder`);
        const files = fs
          .readdirSync(path.join(appDir, dir), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && /\.(swift|kt|m|mm|h|java|podspec|gradle)$/.test(entry.name))
          .map((entry) => path.relative(appDir, path.join(entry.parentPath, entry.name)));
        check(files.length > 0, `expo-image's ${platform} folder ${dir} has native sources`);
        return files.sort()[0]!;
      };
      // The template's app.json names the expo-splash-screen plugin; its modules are loaded (and hashed) when
      // the config is evaluated.
      const pluginFiles = ios.sources
        .filter((s) => s.type === 'file' && (s.reasons ?? []).includes('expoConfigPlugins'))
        .map((s) => String(s.filePath))
        .filter((file) => file.startsWith('node_modules/expo-splash-screen/plugin/'))
        .sort();
      const configPlugin = pluginFiles.find((file) => file.endsWith('/withSplashScreen.js')) ?? pluginFiles[0];
      check(configPlugin, 'the fingerprint hashes the expo-splash-screen config plugin file by file');

      interface Input {
        name: string;
        platform: FingerprintPlatform;
        /** Files the change touches (restored afterwards) and the change itself. */
        files: string[];
        change: () => Promise<void> | void;
        moves: boolean;
        /** A second change on top of the first, which must move the fingerprint again. */
        followUp?: { name: string; change: () => void };
      }
      const append = (file: string, text: string) => () => write(file, `${read(file)}${text}`);
      const inputs: Input[] = [
        {
          name: 'a JavaScript-only change (src/)',
          platform: 'ios',
          files: ['src/app/index.tsx'],
          change: append('src/app/index.tsx', '\nexport const ferryE2e = 1;\n'),
          moves: false,
        },
        {
          name: 'a native module: an internal file change (iOS)',
          platform: 'ios',
          files: [nativeFile(ios.sources, 'ios')],
          change: () => append(nativeFile(ios.sources, 'ios'), '\n// ferry e2e\n')(),
          moves: true,
        },
        {
          name: 'a native module: an internal file change (Android)',
          platform: 'android',
          files: [nativeFile(android.sources, 'android')],
          change: () => append(nativeFile(android.sources, 'android'), '\n// ferry e2e\n')(),
          moves: true,
        },
        {
          name: 'a native module: a new version',
          platform: 'ios',
          files: ['node_modules/expo-image/package.json'],
          change: () => editJson('node_modules/expo-image/package.json', (json) => (json.version = '57.99.0')),
          moves: true,
        },
        {
          name: 'a native module removed from autolinking (the autolinking configuration)',
          platform: 'ios',
          files: ['package.json'],
          change: () => editJson('package.json', (json) => (json.expo = { autolinking: { exclude: ['expo-image'] } })),
          moves: true,
        },
        {
          name: `a config plugin file from node_modules (${configPlugin})`,
          platform: 'ios',
          files: [configPlugin],
          change: append(configPlugin, '\n// ferry e2e\n'),
          moves: true,
        },
        {
          name: 'a local config plugin added to the app config',
          platform: 'ios',
          files: ['app.json', 'plugins/with-ferry-e2e.js'],
          change: () => {
            write('plugins/with-ferry-e2e.js', 'module.exports = (config) => config;\n');
            editJson('app.json', (json) => json.expo.plugins.push('./plugins/with-ferry-e2e'));
          },
          moves: true,
          followUp: {
            name: "then only the local plugin file's code",
            change: () => write('plugins/with-ferry-e2e.js', 'module.exports = (config) => ({ ...config });\n'),
          },
        },
        {
          name: 'the release control file',
          platform: 'ios',
          files: ['release.config.js'],
          change: () =>
            write(
              'release.config.js',
              read('release.config.js').replace("IOS_BUILD_NUMBER = '1'", "IOS_BUILD_NUMBER = '2'"),
            ),
          moves: true,
        },
        {
          name: 'the evaluated app config (a value)',
          platform: 'android',
          files: ['app.json'],
          change: () => editJson('app.json', (json) => (json.expo.android.predictiveBackGestureEnabled = true)),
          moves: true,
        },
        {
          name: 'the evaluated app config (the version, which `balanced` skips)',
          platform: 'ios',
          files: ['app.json'],
          change: () => editJson('app.json', (json) => (json.expo.version = '1.0.1')),
          moves: true,
        },
        {
          name: 'the code-signing certificate (another one)',
          platform: 'ios',
          files: ['certs/certificate.pem'],
          change: () => write('certs/certificate.pem', OTHER_CERTIFICATE),
          moves: true,
        },
        {
          name: 'the code-signing certificate (missing: not committed)',
          platform: 'android',
          files: ['certs/certificate.pem'],
          change: () => fs.rmSync(path.join(appDir, 'certs/certificate.pem')),
          moves: true,
        },
        {
          name: 'the code-signing key id',
          platform: 'ios',
          files: ['app.json'],
          change: () => editJson('app.json', (json) => (json.expo.updates.codeSigningMetadata.keyid = 'main-2027')),
          moves: true,
        },
        {
          name: 'the updates URL',
          platform: 'android',
          files: ['app.json'],
          change: () =>
            editJson('app.json', (json) => (json.expo.updates.url = 'https://api2.example.com/api/updates/manifest')),
          moves: true,
        },
        {
          name: 'the react-native version',
          platform: 'ios',
          files: ['node_modules/react-native/package.json'],
          change: () => editJson('node_modules/react-native/package.json', (json) => (json.version = '0.86.99')),
          moves: true,
        },
        {
          name: 'package.json scripts',
          platform: 'android',
          files: ['package.json'],
          change: () => editJson('package.json', (json) => (json.scripts.postinstall = 'echo ferry')),
          moves: true,
        },
        {
          name: 'a dependency patch (patches/)',
          platform: 'ios',
          files: ['patches/expo-image+57.0.0.patch'],
          change: () => write('patches/expo-image+57.0.0.patch', '--- a\n+++ b\n'),
          moves: true,
        },
      ];
      const before = { ios: ios.hash, android: android.hash };
      for (const input of inputs) {
        const saved = new Map(
          input.files.map((file) => [file, fs.existsSync(path.join(appDir, file)) ? read(file) : undefined]),
        );
        let changed: string;
        let then: string | undefined;
        try {
          await input.change();
          changed = (await expoUpdates(input.platform)).hash;
          if (input.followUp) {
            input.followUp.change();
            then = (await expoUpdates(input.platform)).hash;
          }
        } finally {
          for (const [file, text] of saved) {
            if (text === undefined) fs.rmSync(path.join(appDir, file), { force: true });
            else write(file, text);
          }
          fs.rmSync(path.join(appDir, 'plugins'), { recursive: true, force: true });
          fs.rmSync(path.join(appDir, 'patches'), { recursive: true, force: true });
        }
        // Each change is undone at once; the last step checks that the fingerprints are back to
        // their values, so no leftover change can have moved a later comparison unnoticed.
        const baseline = before[input.platform];
        check(
          (changed !== baseline) === input.moves,
          `${input.name}: the ${input.platform} fingerprint ${input.moves ? 'changes' : 'stays'} (${baseline} → ${changed})`,
        );
        process.stdout.write(
          `${input.moves ? 'moves' : 'stays'}  ${input.platform.padEnd(7)} ${input.name}: ${baseline.slice(0, 12)} → ${changed.slice(0, 12)}\n`,
        );
        if (input.followUp) {
          check(
            then !== undefined && then !== changed,
            `${input.followUp.name}: the fingerprint changes (${changed} → ${then})`,
          );
          process.stdout.write(
            `moves  ${input.platform.padEnd(7)} ${input.followUp.name}: ${changed.slice(0, 12)} → ${then.slice(0, 12)}\n`,
          );
        }
      }
    });

    await step('after the changes were undone: Ferry = expo-updates, unchanged values', async () => {
      for (const platform of PLATFORMS) {
        const hash = await compare(platform, 'preset again');
        check(hash === hashes[`preset ${platform}`], `${platform}: the preset fingerprint is stable`);
      }
    });

    process.stdout.write('\n── e2e:fingerprint passed\n');
    for (const [name, hash] of Object.entries(hashes)) process.stdout.write(`${name.padEnd(16)} ${hash}\n`);
  } finally {
    if (keep || reuse) process.stdout.write(`\nkept ${appDir}\n`);
    else fs.rmSync(work, { recursive: true, force: true });
    process.stdout.write('\nphase timings\n');
    for (const { name, seconds } of timings) process.stdout.write(`  ${seconds.toFixed(1).padStart(6)} s  ${name}\n`);
    process.stdout.write(`  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  total\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\n── e2e:fingerprint FAILED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
