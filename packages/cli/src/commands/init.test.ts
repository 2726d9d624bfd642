import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSigningKey } from '../../../server/src/signing/development-signing-key.js';
import { SDK_54_TEMPLATE, SDK_55_TEMPLATE, type TemplateFiles } from '../../test/support/expo-templates.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { loadFingerprintConfig } from '../fingerprint/app-fingerprint.js';
import { readWorkflowTemplates } from '../init/workflow-templates.js';
import { main } from '../main.js';
import { initCommand } from './init.js';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const SERVER = 'https://api.example.com';

const fixtures: string[] = [];
/** An app folder outside this repository, with @ferry/expo linked in as an installed app has it. */
function appFolder(files: TemplateFiles): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-init-'));
  fixtures.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.mkdirSync(path.join(root, 'node_modules/@ferry'), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'packages/expo'), path.join(root, 'node_modules/@ferry/expo'), 'dir');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'A new Expo app');
  return root;
}

/** Every file of the folder (but node_modules and .git) with its bytes: what "nothing changed" compares. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = path.relative(root, path.join(entry.parentPath, entry.name));
    if (!entry.isFile() || /^(node_modules|\.git)(\/|$)/.test(file)) continue;
    files[file] = fs.readFileSync(path.join(root, file), 'utf8');
  }
  return files;
}

/** The app config as Expo evaluates a dynamic config over app.json: the function gets app.json's `expo`. */
// biome-ignore lint/suspicious/noExplicitAny: the evaluated app config is read field by field.
function evaluateAppConfig(root: string, appEnv: string): Record<string, any> {
  const require = createRequire(path.join(root, 'package.json'));
  const base = JSON.parse(fs.readFileSync(path.join(root, 'app.json'), 'utf8')).expo;
  vi.stubEnv('APP_ENV', appEnv);
  try {
    return require(path.join(root, 'app.config.js'))({ config: base });
  } finally {
    vi.unstubAllEnvs();
  }
}

const git = (root: string, ...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

describe('ferry init', () => {
  let out: CapturedOutput;
  let stderr: string;
  let answers: boolean[];
  let interactive: boolean;
  beforeEach(() => {
    out = new CapturedOutput();
    stderr = '';
    answers = [];
    interactive = false;
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of fixtures.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    initCommand(() => ({
      out,
      interactive,
      ask: async () => answers.shift() ?? false,
      env: {},
      workflowTemplates: () => readWorkflowTemplates(),
    }))(program);
    return main(['node', 'ferry', ...args], program);
  };

  describe.each([
    ['SDK 54', SDK_54_TEMPLATE, 'app/_layout.tsx'],
    ['SDK 55', SDK_55_TEMPLATE, 'src/app/_layout.tsx'],
  ])('on the %s template', (_sdk, template, layout) => {
    it('shows the diff and changes nothing without consent', async () => {
      const root = appFolder(template);
      const before = snapshot(root);
      expect(await ferry('init', '--project', root, '--server', SERVER, '--banner')).toBe(1);
      expect(snapshot(root)).toEqual(before);
      expect(stderr).toMatch(/Nothing was changed \(12 file\(s\) to write in .*\): run `ferry init --yes`/);
      for (const file of [
        'app.config.js',
        'app.json',
        'release.config.js',
        'fingerprint.config.js',
        'certs/certificate.pem',
        'certs/private-key.pem',
        '.gitignore',
        '.github/workflows/publish.yml',
        '.github/workflows/gate.yml',
        '.github/workflows/native-bump.yml',
        '.github/workflows/store-deploy.yml',
        layout,
      ]) {
        expect(out.text).toContain(`+++ b/${file}`);
      }
      // A unified diff, and never the private key.
      expect(out.text).toContain('--- a/.gitignore');
      expect(out.text).toMatch(/^- {4}"version": "1\.0\.0",$/m);
      expect(out.text).toMatch(/^\+!\/certs\/certificate\.pem$/m);
      expect(out.text).not.toMatch(/PRIVATE KEY/);
    });

    it('--yes writes what the docs have a team write by hand; a second run shows no diff', async () => {
      const root = appFolder(template);
      expect(await ferry('init', '--project', root, '--server', SERVER, '--banner', '--yes')).toBe(0);

      // The app config: updates URL, channel header and code signing per APP_ENV, runtimeVersion per platform.
      const production = evaluateAppConfig(root, 'production');
      expect(production.version).toBe('1.0.0');
      expect(production.ios).toMatchObject({ buildNumber: '1', runtimeVersion: '1.0.0(1)' });
      expect(production.android).toMatchObject({ versionCode: 1, runtimeVersion: '1.0.0(1)' });
      expect(production.updates).toEqual({
        enabled: true,
        checkAutomatically: 'ON_LOAD',
        fallbackToCacheTimeout: 0,
        url: `${SERVER}/api/updates/manifest`,
        requestHeaders: { 'expo-channel-name': 'production' },
        codeSigningCertificate: './certs/certificate.pem',
        codeSigningMetadata: { keyid: 'main', alg: 'rsa-v1_5-sha256' },
      });
      expect(production.name).toBe('HelloWorld'); // app.json stays the base
      expect(evaluateAppConfig(root, 'development').updates.requestHeaders).toEqual({
        'expo-channel-name': 'development',
      });
      expect(evaluateAppConfig(root, '').updates.enabled).toBe(false);
      expect(JSON.parse(fs.readFileSync(path.join(root, 'app.json'), 'utf8')).expo.version).toBeUndefined();

      // The fingerprint preset hashes the certificate the app config embeds.
      expect(loadFingerprintConfig(root)?.ferryPreset).toMatchObject({
        version: 2,
        releaseControlFile: 'release.config.js',
        codeSigningCertificate: 'certs/certificate.pem',
      });

      // A certificate a build can embed, and its key, which belong together.
      const certificate = new X509Certificate(fs.readFileSync(path.join(root, 'certs/certificate.pem')));
      expect(certificate.keyUsage).toContain('1.3.6.1.5.5.7.3.3');
      const key = createPrivateKey(fs.readFileSync(path.join(root, 'certs/private-key.pem')));
      expect(certificate.checkPrivateKey(key)).toBe(true);
      expect(fs.statSync(path.join(root, 'certs/private-key.pem')).mode & 0o777).toBe(0o600);

      // git commits the certificate (the template's .gitignore has *.pem), never the key.
      git(root, 'add', '-A');
      const staged = git(root, 'diff', '--cached', '--name-only').split('\n');
      expect(staged).toContain('certs/certificate.pem');
      expect(staged).not.toContain('certs/private-key.pem');

      // The workflows are the templates; the layout has the hook and banner.
      for (const [name, text] of readWorkflowTemplates()) {
        expect(fs.readFileSync(path.join(root, '.github/workflows', name), 'utf8')).toBe(text);
      }
      const edited = fs.readFileSync(path.join(root, layout), 'utf8');
      expect(edited).toContain("import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';");
      expect(edited).toContain('<OtaUpdateBanner update={otaUpdate} topInset={otaInsets.top} />');
      expect(out.text).toContain('Give the server the new key');

      const written = snapshot(root);
      out = new CapturedOutput();
      expect(await ferry('init', '--project', root, '--server', SERVER, '--banner')).toBe(0);
      expect(out.text).not.toMatch(/^(\+\+\+|---) /m);
      expect(out.text).toContain('nothing to change');
      expect(snapshot(root)).toEqual(written);
    });
  });

  it('on a terminal it asks; "no" changes nothing, "yes" writes', async () => {
    interactive = true;
    const root = appFolder(SDK_55_TEMPLATE);
    const before = snapshot(root);
    answers = [false];
    expect(await ferry('init', '--project', root, '--server', SERVER)).toBe(1);
    expect(snapshot(root)).toEqual(before);
    answers = [true];
    expect(await ferry('init', '--project', root, '--server', SERVER)).toBe(0);
    expect(fs.existsSync(path.join(root, 'app.config.js'))).toBe(true);
    // No --banner: the layout is untouched.
    expect(fs.readFileSync(path.join(root, 'src/app/_layout.tsx'), 'utf8')).toBe(before['src/app/_layout.tsx']);
  });

  it('embeds an existing certificate (--certificate), generates no key, and keeps it on later runs', async () => {
    const server = generateSigningKey('the team server');
    const root = appFolder(SDK_54_TEMPLATE);
    const given = path.join(root, '..', `${path.basename(root)}-server.pem`);
    fixtures.push(given);
    fs.writeFileSync(given, server.certificatePem);
    expect(
      await ferry('init', '--project', root, '--server', SERVER, '--certificate', given, '--keyid', 'team', '--yes'),
    ).toBe(0);
    expect(fs.readFileSync(path.join(root, 'certs/certificate.pem'), 'utf8')).toBe(server.certificatePem);
    expect(fs.existsSync(path.join(root, 'certs/private-key.pem'))).toBe(false);
    expect(evaluateAppConfig(root, 'production').updates.codeSigningMetadata).toEqual({
      keyid: 'team',
      alg: 'rsa-v1_5-sha256',
    });

    const other = path.join(root, '..', `${path.basename(root)}-other.pem`);
    fixtures.push(other);
    fs.writeFileSync(other, generateSigningKey('another').certificatePem);
    expect(await ferry('init', '--project', root, '--certificate', other, '--yes')).toBe(1);
    expect(stderr).toMatch(/certs\/certificate\.pem exists and differs .* never replaces the certificate builds embed/);
    expect(fs.readFileSync(path.join(root, 'certs/certificate.pem'), 'utf8')).toBe(server.certificatePem);
  });

  it("--app writes the app's updates URL and what the app's server needs next", async () => {
    const root = appFolder(SDK_55_TEMPLATE);
    expect(await ferry('init', '--project', root, '--server', SERVER, '--app', 'shop', '--yes')).toBe(0);
    expect(evaluateAppConfig(root, 'production').updates.url).toBe(`${SERVER}/api/apps/shop/manifest`);
    expect(evaluateAppConfig(root, 'development').updates.url).toBe(`${SERVER}/api/apps/shop/manifest`);
    expect(out.text).toContain('ferry-server apps create shop --key-file <path of private-key.pem>');
    expect(out.text).toContain("OTA_RELEASE_TOKEN=<release token of app 'shop'>");
    // A second run with the same app changes nothing.
    out = new CapturedOutput();
    expect(await ferry('init', '--project', root, '--server', SERVER, '--app', 'shop')).toBe(0);
    expect(out.text).toContain('nothing to change');

    expect(await ferry('init', '--project', root, '--server', SERVER, '--app', 'Not A Slug')).toBe(1);
    expect(stderr).toMatch(/option '--app <slug>' argument 'Not A Slug' is invalid/);
  });

  it('--no-workflows leaves .github alone', async () => {
    const root = appFolder(SDK_55_TEMPLATE);
    expect(await ferry('init', '--project', root, '--server', SERVER, '--no-workflows', '--yes')).toBe(0);
    expect(fs.existsSync(path.join(root, '.github'))).toBe(false);
  });

  it('keeps an app.json key Ferry does not set (updates.enableBsdiffPatchSupport) and takes build numbers from it', async () => {
    const appJson = JSON.parse(SDK_55_TEMPLATE['app.json']!);
    appJson.expo.version = '2.3.0';
    appJson.expo.ios.buildNumber = '57';
    appJson.expo.android.versionCode = 41;
    appJson.expo.runtimeVersion = { policy: 'appVersion' };
    appJson.expo.updates = { url: 'https://u.expo.dev/abc', enableBsdiffPatchSupport: true };
    const root = appFolder({ ...SDK_55_TEMPLATE, 'app.json': `${JSON.stringify(appJson, null, 2)}\n` });
    expect(await ferry('init', '--project', root, '--server', SERVER, '--yes')).toBe(0);
    const config = evaluateAppConfig(root, 'production');
    expect(config.ios.runtimeVersion).toBe('2.3.0(57)');
    expect(config.android.runtimeVersion).toBe('2.3.0(41)');
    expect(config.runtimeVersion).toBeUndefined();
    expect(config.updates).toMatchObject({ url: `${SERVER}/api/updates/manifest`, enableBsdiffPatchSupport: true });
    expect(JSON.parse(fs.readFileSync(path.join(root, 'app.json'), 'utf8')).expo.updates).toEqual({
      enableBsdiffPatchSupport: true,
    });
  });

  it.each<[string, (root: string) => void, string[], RegExp]>([
    [
      'an app.config.ts of its own',
      (root) => fs.writeFileSync(path.join(root, 'app.config.ts'), 'export default ({ config }) => config;\n'),
      ['--server', SERVER, '--yes'],
      /app\.config\.ts is a program of your own: ferry init does not rewrite code it did not write.*docs\/add-to-an-app\.md/,
    ],
    ['no server named', () => {}, ['--yes'], /Which Ferry server do the builds ask for updates\? Pass --server/],
    [
      'a server that is not a URL',
      () => {},
      ['--server', 'api.example.com', '--yes'],
      /--server must be the server's address/,
    ],
    [
      'no app.json',
      (root) => fs.rmSync(path.join(root, 'app.json')),
      ['--server', SERVER, '--yes'],
      /has no app\.json and no app\.config/,
    ],
    [
      'a folder that is not an Expo app',
      (root) => fs.writeFileSync(path.join(root, 'package.json'), '{"name":"web"}\n'),
      ['--server', SERVER, '--yes'],
      /does not depend on expo/,
    ],
    [
      '--banner on a layout it cannot read',
      (root) => fs.writeFileSync(path.join(root, 'src/app/_layout.tsx'), 'export const x = 1;\n'),
      ['--server', SERVER, '--banner', '--yes'],
      /--banner: src\/app\/_layout\.tsx was not changed: it has no default-exported component function/,
    ],
  ])('refuses %s, and writes nothing', async (_name, arrange, args, error) => {
    const root = appFolder(SDK_55_TEMPLATE);
    arrange(root);
    const before = snapshot(root);
    expect(await ferry('init', '--project', root, ...args)).toBe(1);
    expect(stderr).toMatch(error);
    expect(snapshot(root)).toEqual(before);
  });
});
