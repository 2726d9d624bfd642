import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertCompleteSources,
  computeFingerprint,
  type FingerprintSource,
  loadFingerprintConfig,
  parseFingerprintOutput,
  presetWarning,
  resolveAppFingerprintTool,
} from './app-fingerprint.js';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
/** @ferry/expo's preset, as an app's fingerprint.config.js requires it (here by absolute path). */
const presetModule = path.join(repoRoot, 'packages/expo/config/fingerprint.cjs');

const contents = (id: string, reasons: string[] = [id]): FingerprintSource => ({
  type: 'contents',
  id,
  reasons,
  hash: 'h',
});
const appConfig = contents('expoConfig');
const reactNative = contents('package:react-native');
const autolinking = contents('expoAutolinkingConfig:ios', ['expoAutolinkingIos']);
const rnAutolinking = contents('rncoreAutolinkingConfig:ios', ['rncoreAutolinkingIos']);

/**
 * A fake app in a temporary folder outside this repository (so nothing resolves to Ferry's own
 * node_modules): files by relative path. `node_modules/expo-updates/bin/cli.js` stands in for the
 * real CLI; it prints what it was asked, so the tests see the command line and working directory.
 */
const fixtures: string[] = [];
function fakeApp(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-fp-app-'));
  fixtures.push(root);
  for (const [file, text] of Object.entries({ 'package.json': '{"name":"app","private":true}\n', ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}
afterEach(() => {
  for (const dir of fixtures.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const FAKE_CLI = `
const platform = process.argv[process.argv.indexOf('--platform') + 1];
if (process.env.FAKE_FAIL) { console.error('CommandError: ' + process.env.FAKE_FAIL); process.exit(1); }
if (process.env.FAKE_GARBAGE) { console.log('not json'); process.exit(0); }
const reasons = (r) => [r];
const sources = [
  { type: 'contents', id: 'expoConfig', reasons: reasons('expoConfig'), hash: 'a' },
  { type: 'contents', id: 'package:react-native', reasons: reasons('package:react-native'), hash: 'b' },
  { type: 'contents', id: 'expoAutolinkingConfig:' + platform, reasons: reasons('expoAutolinking'), hash: 'c' },
  { type: 'contents', id: 'cwd:' + process.cwd(), reasons: reasons('test'), hash: 'd' },
  { type: 'contents', id: 'argv:' + process.argv.slice(2).join(' '), reasons: reasons('test'), hash: 'e' },
].filter((s) => !(process.env.FAKE_DROP && s.id.startsWith(process.env.FAKE_DROP)));
console.log(JSON.stringify({ sources, hash: 'hash-of-' + platform }));
`;

const FAKE_EXPO_CONFIG = `
const fs = require('node:fs');
const path = require('node:path');
exports.getConfig = (projectRoot) => {
  const file = path.join(projectRoot, 'app-config.json');
  return { exp: fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).expo : {} };
};
`;

/** The app config of a fake app that embeds a certificate (what updatesConfig() writes). */
const embedding = (certificate: string) =>
  JSON.stringify({
    expo: { updates: { codeSigningCertificate: certificate, codeSigningMetadata: { keyid: 'main' } } },
  });

/** The packages of an app with expo-updates installed (expo-updates → expo/fingerprint → @expo/fingerprint). */
const installed = (fingerprintVersion = '0.99.1'): Record<string, string> => ({
  'node_modules/expo-updates/package.json': JSON.stringify({
    name: 'expo-updates',
    version: '57.0.99',
    bin: { 'expo-updates': 'bin/cli.js' },
  }),
  'node_modules/expo-updates/bin/cli.js': FAKE_CLI,
  'node_modules/expo/package.json': JSON.stringify({ name: 'expo', version: '57.0.0' }),
  'node_modules/expo/fingerprint.js': "module.exports = require('@expo/fingerprint');\n",
  // expo/config's getConfig, standing in for @expo/config: the app config is app-config.json's `expo`.
  'node_modules/expo/config.js': FAKE_EXPO_CONFIG,
  'node_modules/@expo/fingerprint/package.json': JSON.stringify({
    name: '@expo/fingerprint',
    version: fingerprintVersion,
    main: 'index.js',
  }),
  'node_modules/@expo/fingerprint/index.js': 'module.exports = {};\n',
});

const presetConfig = `module.exports = require(${JSON.stringify(presetModule)}).ferryFingerprintConfig(__dirname);\n`;

describe('resolveAppFingerprintTool: the app’s own expo-updates and @expo/fingerprint', () => {
  it('resolves both from the project root, never from Ferry’s own install', () => {
    const root = fakeApp(installed('0.99.1'));
    const tool = resolveAppFingerprintTool(root);
    expect(tool.expoUpdates).toEqual({
      dir: path.join(root, 'node_modules/expo-updates'),
      version: '57.0.99',
      cli: path.join(root, 'node_modules/expo-updates/bin/cli.js'),
    });
    expect(tool.fingerprint).toEqual({ dir: path.join(root, 'node_modules/@expo/fingerprint'), version: '0.99.1' });
  });

  it('takes the @expo/fingerprint that expo resolves (a nested copy wins over the hoisted one)', () => {
    const root = fakeApp({
      ...installed('0.20.0'),
      'node_modules/expo/node_modules/@expo/fingerprint/package.json': JSON.stringify({
        name: '@expo/fingerprint',
        version: '0.21.7',
        main: 'index.js',
      }),
      'node_modules/expo/node_modules/@expo/fingerprint/index.js': 'module.exports = {};\n',
    });
    expect(resolveAppFingerprintTool(root).fingerprint.version).toBe('0.21.7');
  });

  it('refuses an app without expo-updates', () => {
    const root = fakeApp({});
    expect(() => resolveAppFingerprintTool(root)).toThrow(
      /expo-updates is not installed in .*npx expo install expo-updates/,
    );
  });

  it('refuses an app whose expo-updates has no CLI', () => {
    const files = installed();
    delete files['node_modules/expo-updates/bin/cli.js'];
    expect(() => resolveAppFingerprintTool(fakeApp(files))).toThrow(/has no `expo-updates` command/);
  });

  it('refuses an app without @expo/fingerprint instead of using a bundled copy', () => {
    const files = installed();
    for (const file of Object.keys(files)) if (file.includes('@expo/fingerprint')) delete files[file];
    expect(() => resolveAppFingerprintTool(fakeApp(files))).toThrow(
      /@expo\/fingerprint is not installed .* does not fall back to a copy of its own/,
    );
  });

  it('refuses an app without expo (expo/fingerprint cannot be resolved)', () => {
    const files = installed();
    for (const file of Object.keys(files)) if (file.startsWith('node_modules/expo/')) delete files[file];
    expect(() => resolveAppFingerprintTool(fakeApp(files))).toThrow(/@expo\/fingerprint is not installed/);
  });
});

describe('loadFingerprintConfig: the app’s fingerprint.config.js, as @expo/fingerprint loads it', () => {
  it('no config: undefined', () => {
    expect(loadFingerprintConfig(fakeApp({}))).toBeUndefined();
  });

  it('a config of the app’s own: loaded, no preset', () => {
    const root = fakeApp({ 'fingerprint.config.js': 'module.exports = { sourceSkips: 0 };\n' });
    expect(loadFingerprintConfig(root)).toEqual({ file: 'fingerprint.config.js' });
  });

  it('Ferry’s preset: recognised with its version and release control file', () => {
    const root = fakeApp({ 'fingerprint.config.cjs': presetConfig, 'release.config.js': 'module.exports = {};\n' });
    expect(loadFingerprintConfig(root)).toEqual({
      file: 'fingerprint.config.cjs',
      ferryPreset: {
        version: 2,
        releaseControlFile: 'release.config.js',
        codeSigningCertificate: 'certs/certificate.pem',
      },
    });
  });

  it('the preset spread into a config of the app’s own is still recognised', () => {
    const root = fakeApp({
      'fingerprint.config.js': `module.exports = { ...require(${JSON.stringify(presetModule)}).ferryFingerprintConfig(__dirname, { releaseControlFile: false }), debug: true };\n`,
    });
    expect(loadFingerprintConfig(root)?.ferryPreset).toEqual({
      version: 2,
      releaseControlFile: null,
      codeSigningCertificate: 'certs/certificate.pem',
    });
  });

  it.each([
    [
      'a config that throws',
      { 'fingerprint.config.js': "throw new Error('boom');\n" },
      /fingerprint\.config\.js failed to load: boom/,
    ],
    [
      'the preset without a release control file',
      { 'fingerprint.config.js': presetConfig },
      /failed to load: no release control file/,
    ],
    [
      'a config that exports a function',
      { 'fingerprint.config.js': 'module.exports = () => ({});\n' },
      /exports function, not a fingerprint config object/,
    ],
    [
      'a default export',
      { 'fingerprint.config.js': 'module.exports = { default: { sourceSkips: 0 } };\n' },
      /has a default export, which @expo\/fingerprint does not read/,
    ],
    [
      'both fingerprint.config.js and fingerprint.config.cjs',
      { 'fingerprint.config.js': 'module.exports = {};\n', 'fingerprint.config.cjs': 'module.exports = {};\n' },
      /both fingerprint\.config\.js and fingerprint\.config\.cjs/,
    ],
  ])('refuses %s (@expo/fingerprint would silently use its defaults)', (_name, files, error) => {
    expect(() => loadFingerprintConfig(fakeApp(files))).toThrow(error);
  });
});

describe('computeFingerprint: `expo-updates fingerprint:generate --platform <p>` of the app', () => {
  it.each(['ios', 'android'] as const)(
    '%s: runs the app’s CLI in the project with the platform, takes its hash',
    async (platform) => {
      const root = fakeApp({ ...installed('0.20.13'), 'fingerprint.config.js': presetConfig, 'release.config.js': '' });
      const lines: string[] = [];
      const result = await computeFingerprint(root, platform, { log: (line) => lines.push(line) });
      expect(result.hash).toBe(`hash-of-${platform}`);
      const ids = result.sources.map((source) => source.id);
      expect(ids).toContain(`argv:fingerprint:generate --platform ${platform}`);
      expect(ids).toContain(`cwd:${fs.realpathSync(root)}`);
      expect(lines).toEqual([
        `${platform}: fingerprint hash-of-${platform} (\`npx expo-updates fingerprint:generate --platform ${platform}\` of the app: ` +
          "expo-updates 57.0.99, @expo/fingerprint 0.20.13, fingerprint.config.js: Ferry's preset 2)",
      ]);
    },
  );

  describe('the code-signing certificate the build embeds', () => {
    const app = (certificate: string, fingerprintConfig = presetConfig) =>
      fakeApp({
        ...installed(),
        'fingerprint.config.js': fingerprintConfig,
        'release.config.js': '',
        'app-config.json': embedding(certificate),
      });

    it('the one the preset hashes: computes', async () => {
      const root = app('./certs/certificate.pem');
      expect((await computeFingerprint(root, 'ios', { log: () => {} })).hash).toBe('hash-of-ios');
    });

    it.each([
      [
        'another file than the preset hashes',
        () => app('./keys/app.pem'),
        /fingerprint\.config\.js hashes the certificate certs\/certificate\.pem, but the app config embeds keys\/app\.pem, so a new certificate .* would pass the guard and the gate\. .*codeSigningCertificate: 'keys\/app\.pem'/,
      ],
      [
        'a preset told there is none',
        () =>
          app(
            './certs/certificate.pem',
            `module.exports = require(${JSON.stringify(presetModule)}).ferryFingerprintConfig(__dirname, { codeSigningCertificate: false });\n`,
          ),
        /passes codeSigningCertificate: false, but the app config embeds certs\/certificate\.pem/,
      ],
      [
        'the preset of an older @ferry/expo (1, no certificate)',
        () =>
          app(
            './certs/certificate.pem',
            "module.exports = { preset: 'strict', [Symbol.for('@ferry/expo/fingerprint-preset')]: { version: 1, releaseControlFile: null } };\n",
          ),
        /uses Ferry's fingerprint preset 1, which does not hash the code-signing certificate certs\/certificate\.pem.*Upgrade @ferry\/expo/,
      ],
    ])('%s: refused before the command runs', async (_name, make, error) => {
      const root = make();
      process.env.FAKE_FAIL = 'the command must not run';
      try {
        await expect(computeFingerprint(root, 'ios', { log: () => {} })).rejects.toThrow(error);
      } finally {
        delete process.env.FAKE_FAIL;
      }
    });
  });

  it('warns when the app’s config does not use Ferry’s preset, and still computes', async () => {
    const root = fakeApp(installed('0.21.1'));
    const lines: string[] = [];
    const result = await computeFingerprint(root, 'ios', { log: (line) => lines.push(line) });
    expect(result.hash).toBe('hash-of-ios');
    expect(lines[1]).toMatch(
      /^warning: the app has no fingerprint\.config\.js with Ferry's preset .*0\.21\.1's defaults/,
    );
  });

  it('the command never gets the release token, the job file or the runner’s per-step variables', async () => {
    const files = installed();
    files['node_modules/expo-updates/bin/cli.js'] = FAKE_CLI.replace(
      "{ type: 'contents', id: 'cwd:'",
      "{ type: 'contents', id: 'env:' + ['OTA_RELEASE_TOKEN', 'FERRY_FINGERPRINT_CACHE', 'GITHUB_OUTPUT', 'APP_ENV'].map((n) => n + '=' + (process.env[n] ?? '-')).join(','), reasons: ['test'], hash: 'f' },\n  { type: 'contents', id: 'cwd:'",
    );
    const root = fakeApp(files);
    const stubbed = {
      OTA_RELEASE_TOKEN: 'secret',
      FERRY_FINGERPRINT_CACHE: '/tmp/x.json',
      GITHUB_OUTPUT: '/tmp/o',
      APP_ENV: 'production',
    };
    const saved = Object.fromEntries(Object.keys(stubbed).map((name) => [name, process.env[name]]));
    Object.assign(process.env, stubbed);
    try {
      const { sources } = await computeFingerprint(root, 'ios', { log: () => {} });
      expect(sources.map((source) => source.id)).toContain(
        'env:OTA_RELEASE_TOKEN=-,FERRY_FINGERPRINT_CACHE=-,GITHUB_OUTPUT=-,APP_ENV=production',
      );
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('a failing command: its message, exit code and stderr', async () => {
    const root = fakeApp(installed());
    process.env.FAKE_FAIL = 'Invalid project root';
    try {
      await expect(computeFingerprint(root, 'ios', { log: () => {} })).rejects.toThrow(
        /expo-updates fingerprint:generate --platform ios failed in .* \(exit code 1\):\nCommandError: Invalid project root/,
      );
    } finally {
      delete process.env.FAKE_FAIL;
    }
  });

  it('output without a fingerprint is refused', async () => {
    const root = fakeApp(installed());
    process.env.FAKE_GARBAGE = '1';
    try {
      await expect(computeFingerprint(root, 'android', { log: () => {} })).rejects.toThrow(
        /printed no fingerprint:\nnot json/,
      );
    } finally {
      delete process.env.FAKE_GARBAGE;
    }
  });

  it('a fingerprint without the app config (a project that is not installed) is refused', async () => {
    const root = fakeApp(installed());
    process.env.FAKE_DROP = 'expoConfig';
    try {
      await expect(computeFingerprint(root, 'ios', { log: () => {} })).rejects.toThrow(
        /lacks the evaluated app config/,
      );
    } finally {
      delete process.env.FAKE_DROP;
    }
  });

  it('a broken fingerprint.config.js stops before anything runs', async () => {
    const root = fakeApp({ ...installed(), 'fingerprint.config.js': 'throw new Error("typo");\n' });
    await expect(computeFingerprint(root, 'ios', { log: () => {} })).rejects.toThrow(/failed to load: typo/);
  });
});

describe('parseFingerprintOutput', () => {
  it.each([
    ['the one JSON line', '{"sources":[],"hash":"abc"}\n', 'abc'],
    ['after other output', 'npm warn something\n{"sources":[],"hash":"abc"}\n', 'abc'],
    ['no hash', '{"sources":[]}\n', undefined],
    ['not JSON', '{oops\n', undefined],
    ['nothing', '', undefined],
  ])('%s', (_name, stdout, hash) => {
    expect(parseFingerprintOutput(stdout)?.hash).toBe(hash);
  });
});

describe('presetWarning', () => {
  const tool = { expoUpdates: { dir: '', version: '57.0.24', cli: '' }, fingerprint: { dir: '', version: '0.21.1' } };
  it.each([
    ['no config', undefined, /the app has no fingerprint\.config\.js with Ferry's preset/],
    ['a config of its own', { file: 'fingerprint.config.js' }, /fingerprint\.config\.js does not use Ferry's preset/],
    ['the preset', { file: 'fingerprint.config.js', ferryPreset: { version: 2, releaseControlFile: null } }, undefined],
  ])('%s', (_name, config, warning) => {
    const text = presetWarning(config, tool);
    if (warning) expect(text).toMatch(warning);
    else expect(text).toBeUndefined();
  });
});

describe('assertCompleteSources', () => {
  it.each([
    ['all three', [appConfig, reactNative, autolinking], undefined],
    ['RN core autolinking counts as autolinking', [appConfig, reactNative, rnAutolinking], undefined],
    ['no app config', [reactNative, autolinking], /lacks the evaluated app config/],
    ['no react-native', [appConfig, autolinking], /lacks the react-native package/],
    ['no autolinking', [appConfig, reactNative], /lacks the autolinking configuration/],
    [
      'an uninstalled project (scripts only)',
      [contents('packageJson:scripts')],
      /lacks the evaluated app config .*, the react-native package, the autolinking configuration.*npm ci/,
    ],
  ])('%s', (_name, sources, error) => {
    const check = () => assertCompleteSources(sources, 'ios');
    if (error) expect(check).toThrow(error);
    else expect(check).not.toThrow();
  });
});

describe('the preset, as @expo/fingerprint 0.21 reads it', () => {
  it('resolves to the `strict` preset’s settings plus the release control file and the certificate', async () => {
    const require = createRequire(import.meta.url);
    const { normalizeOptionsAsync } = require('@expo/fingerprint/build/Options.js');
    const { resolvePreset } = require('@expo/fingerprint/build/Presets.js');
    const root = fakeApp({ 'fingerprint.config.js': presetConfig, 'release.config.js': 'module.exports = {};\n' });
    // What expo-updates passes (one platform, silent), on top of what the config says.
    const options = await normalizeOptionsAsync(root, { platforms: ['ios'], silent: true });
    expect(options).toMatchObject({ ...resolvePreset('strict'), preset: 'strict', hashAlgorithm: 'sha1' });
    expect(options.extraSources).toEqual([
      { type: 'file', filePath: 'release.config.js', reasons: ['releaseControlFile'] },
      {
        type: 'contents',
        id: 'ferry:codeSigningCertificate',
        contents: JSON.stringify({ file: 'certs/certificate.pem', certificate: null }),
        reasons: ['codeSigningCertificate'],
      },
    ]);
    // The default it replaces would hash native modules by name@version only.
    expect(resolvePreset('balanced').nativeModuleSourceType).toBe('package');
  });
});
