import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSigningKey } from '../../../server/src/signing/development-signing-key.js';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import { CliError } from '../cli-error.js';
import type { AppCodeSigning } from '../code-signing/app-code-signing.js';
import type { AppFingerprintTool, FingerprintConfigInfo } from '../fingerprint/app-fingerprint.js';
import { main } from '../main.js';
import { type DoctorDependencies, doctorCommand } from './doctor.js';

const TOOL: AppFingerprintTool = {
  expoUpdates: { dir: '/app/node_modules/expo-updates', version: '57.0.24', cli: '/app/node_modules/expo-updates/cli' },
  fingerprint: { dir: '/app/node_modules/@expo/fingerprint', version: '0.20.16' },
};
const PRESET: FingerprintConfigInfo = {
  file: 'fingerprint.config.js',
  ferryPreset: { version: 2, releaseControlFile: 'release.config.js', codeSigningCertificate: 'certs/certificate.pem' },
};

let track = 0;

/**
 * `ferry doctor` against a real server over HTTP (SQLite: the doctor reads, it stores nothing). The
 * app's Expo-dependent parts (config evaluation, expo-updates, fingerprint config, git) are fakes a
 * test sets; the certificate, the export and everything on the wire are real.
 */
describe('ferry doctor', () => {
  let server: TestServer;
  let project: string;
  let out: CapturedOutput;
  let stderr: string;
  let deps: DoctorDependencies;
  let config: Record<string, unknown>;
  let codeSigning: AppCodeSigning | undefined;
  const exports: SyntheticExport[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    for (const made of exports) made.remove();
    await server?.close();
  });

  beforeEach(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-doctor-'));
    fs.mkdirSync(path.join(project, 'certs'));
    fs.writeFileSync(path.join(project, 'certs/certificate.pem'), server.certificatePem);
    const n = ++track;
    config = {
      name: 'App',
      slug: 'app',
      ios: { runtimeVersion: `3.${n}.0(1)` },
      android: { runtimeVersion: `3.${n}.0(2)` },
      updates: {
        enabled: true,
        url: `${server.url}/api/updates/manifest`,
        requestHeaders: { 'expo-channel-name': 'production' },
      },
    };
    codeSigning = {
      certificate: './certs/certificate.pem',
      certificateFile: path.join(project, 'certs/certificate.pem'),
      certificatePath: 'certs/certificate.pem',
      keyId: 'main',
      alg: 'rsa-v1_5-sha256',
    };
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    deps = {
      env: { APP_ENV: 'production', OTA_RELEASE_TOKEN: server.token },
      out,
      evaluateAppConfig: async () => config,
      codeSigning: async () => codeSigning,
      resolveFingerprintTool: () => TOOL,
      loadFingerprintConfig: () => PRESET,
      gitIgnores: () => false,
      retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
    };
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(project, { recursive: true, force: true });
  });

  const doctor = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    doctorCommand(() => deps)(program);
    return main(['node', 'ferry', 'doctor', '--project', project, ...args], program);
  };
  /** The report's line for a check (and the fix under it, when there is one). */
  const line = (check: string) => {
    const lines = out.text.split('\n');
    const at = lines.findIndex((text) => text.includes(`] ${check}`));
    return [lines[at], lines[at + 1]?.startsWith('       fix:') ? lines[at + 1] : undefined].filter(Boolean).join('\n');
  };
  const publishIos = async () => {
    const payload = releasePayload({ runtimeVersion: (config.ios as { runtimeVersion: string }).runtimeVersion });
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    return ((await response.json()) as { release: { id: string } }).release.id;
  };
  const exportWith = (platforms: string[]) => {
    const made = writeSyntheticExport(
      Object.fromEntries(platforms.map((platform) => [platform, { bundle: bundle(platform), assets: [asset('png')] }])),
    );
    exports.push(made);
    return made.dir;
  };

  it('an app and a server that fit: every check passes, a track without a release is a warning, exit 0', async () => {
    const released = await publishIos();
    expect(await doctor('--dist', exportWith(['ios', 'android']))).toBe(0);
    expect(line('the app config resolves')).toMatch(
      /^\[ok {2}\] the app config resolves: APP_ENV=production: channel production; ios 3\.\d+\.0\(1\), android 3\.\d+\.0\(2\); updates from http:\/\/127\.0\.0\.1:\d+\/api\/updates\/manifest$/,
    );
    expect(line('expo-updates is installed')).toBe(
      '[ok  ] expo-updates is installed: expo-updates 57.0.24, @expo/fingerprint 0.20.16',
    );
    expect(line("the certificate matches the server's signature")).toMatch(
      /^\[ok {2}\] .*certs\/certificate\.pem \(SHA-256 [0-9A-F:]+\) verifies the server's signatures, key id main$/,
    );
    expect(out.text).toContain(
      `ios: production/${(config.ios as { runtimeVersion: string }).runtimeVersion}: update ${released}, signature verified with certs/certificate.pem`,
    );
    expect(out.text).toMatch(/\[warn\] .*android: production\/3\.\d+\.0\(2\): no update yet \(204\)/);
    expect(line('the token works')).toBe(
      '[ok  ] the token works: the server accepts OTA_RELEASE_TOKEN (GET /api/updates/releases)',
    );
    expect(line('the export contains both platforms')).toMatch(
      /ios: bundle and 1 asset\(s\); android: bundle and 1 asset\(s\)/,
    );
    expect(out.text).toContain('doctor: ready to publish (1 warning(s)).');
  });

  it('finds the server through the app config when neither --server nor OTA_SERVER_URL names it', async () => {
    expect(await doctor()).toBe(0);
    expect(out.text).toContain(`       server: ${server.url}\n`);
    expect(line('the export contains both platforms')).toMatch(
      /^\[skip\] .*no export in dist\/.*\n {7}fix: .*--platform ios --platform android/,
    );
  });

  type Case = [string, () => void | Promise<void>, string, RegExp];
  const cases: Case[] = [
    [
      'an app config that does not evaluate',
      () => {
        deps.evaluateAppConfig = async () => {
          throw new CliError('The app config failed to evaluate: Cannot find module ./release.config');
        };
      },
      'the app config resolves',
      /FAIL.*Cannot find module \.\/release\.config\n {7}fix: run `npx expo config` in the app/,
    ],
    [
      'updates off (APP_ENV unset)',
      () => {
        deps.env = { OTA_RELEASE_TOKEN: server.token };
        config.updates = { enabled: false, requestHeaders: { 'expo-channel-name': 'development' } };
      },
      'the app config resolves',
      /FAIL.*updates are off, or have no URL, for APP_ENV=\(unset, which is local\)\n {7}fix: run the doctor with the APP_ENV you publish/,
    ],
    [
      'a runtimeVersion policy',
      () => {
        config.ios = { runtimeVersion: { policy: 'fingerprint' } };
      },
      'the app config resolves',
      /FAIL.*"fingerprint" policy.*\n {7}fix: set ios\.runtimeVersion and android\.runtimeVersion with runtimeVersionsFor\(\)/,
    ],
    [
      'no expo-updates',
      () => {
        deps.resolveFingerprintTool = () => {
          throw new CliError('Cannot compute the native fingerprint: expo-updates is not installed in /app.');
        };
      },
      'expo-updates is installed',
      /FAIL.*expo-updates is not installed.*\n {7}fix: `npx expo install expo-updates`, then `npm ci`/,
    ],
    [
      'no certificate in the app config',
      () => {
        codeSigning = undefined;
      },
      "the certificate matches the server's signature",
      /FAIL.*names no updates\.codeSigningCertificate.*\n {7}fix: pass codeSigningCertificate to updatesConfig\(\)/,
    ],
    [
      'a certificate that is not there',
      () => fs.rmSync(path.join(project, 'certs/certificate.pem')),
      "the certificate matches the server's signature",
      /FAIL.*certs\/certificate\.pem does not exist\..*add `!certs\/certificate\.pem` to \.gitignore/,
    ],
    [
      'a certificate git ignores (Expo’s templates ignore *.pem)',
      () => {
        deps.gitIgnores = (_root, file) => file === 'certs/certificate.pem';
      },
      "the certificate matches the server's signature",
      /FAIL.*certs\/certificate\.pem is ignored by git.*\n {7}fix: add `!certs\/certificate\.pem` at the end of \.gitignore/,
    ],
    [
      'another key’s certificate',
      () => fs.writeFileSync(path.join(project, 'certs/certificate.pem'), generateSigningKey('other').certificatePem),
      "the certificate matches the server's signature",
      /FAIL.*certs\/certificate\.pem does not verify this server's signatures.*Put the server's certificate in certs\/certificate\.pem/,
    ],
    [
      'another key id',
      () => {
        codeSigning = { ...codeSigning!, keyId: 'root' };
      },
      "the certificate matches the server's signature",
      /FAIL.*server signs with key id "main", but the app config's codeSigningMetadata\.keyid is "root"/,
    ],
    [
      'a fingerprint preset that hashes another certificate',
      () => {
        deps.loadFingerprintConfig = () => ({
          ...PRESET,
          ferryPreset: { ...PRESET.ferryPreset!, codeSigningCertificate: null },
        });
      },
      "the certificate matches the server's signature",
      /FAIL.*passes codeSigningCertificate: false, but the app config embeds certs\/certificate\.pem/,
    ],
    [
      'an updates URL that is not a manifest endpoint',
      () => {
        (config.updates as { url: string }).url = `${server.url}/api/manifest`;
      },
      'the server answers for this runtime version and channel',
      /FAIL.*ios: production\/3\.\d+\.0\(1\): the manifest endpoint answered 404.*\n {7}fix: check updates\.url/,
    ],
    [
      'a signed update the app’s certificate does not verify',
      async () => {
        await publishIos();
        codeSigning = { ...codeSigning!, keyId: 'main' };
        fs.writeFileSync(path.join(project, 'certs/certificate.pem'), generateSigningKey('other').certificatePem);
      },
      'the server answers for this runtime version and channel',
      /FAIL.*ios: production\/3\.\d+\.0\(1\): update [0-9a-f-]{36}, but its signature does not verify with certs\/certificate\.pem: devices reject it/,
    ],
    [
      'no token',
      () => {
        deps.env = { APP_ENV: 'production' };
      },
      'the token works',
      /FAIL.*OTA_RELEASE_TOKEN is not set\n {7}fix: set it to the server’s release token/,
    ],
    [
      'a wrong token',
      () => {
        deps.env = { APP_ENV: 'production', OTA_RELEASE_TOKEN: 'not-the-token' };
      },
      'the token works',
      /FAIL.*\n {7}fix: OTA_RELEASE_TOKEN is not this server’s release token/,
    ],
    [
      'an export without the native platforms (a web export)',
      () => {
        const dir = exportWith(['web']);
        deps.out = out;
        fs.renameSync(dir, path.join(project, 'dist'));
      },
      'the export contains both platforms',
      /FAIL.*The export has no ios or android bundle.*\n {7}fix: npx expo export --platform ios --platform android/,
    ],
  ];

  it.each(cases)('%s: says what to fix, exit 1', async (_name, arrange, check, report) => {
    await arrange();
    expect(await doctor()).toBe(1);
    expect(line(check)).toMatch(report);
    expect(stderr).toMatch(/doctor: \d+ problem\(s\) to fix/);
  });

  it('a server it cannot reach: the checks that need it fail, saying so', async () => {
    const closed = await startTestServer('sqlite');
    const url = closed.url;
    await closed.close();
    (config.updates as { url: string }).url = `${url}/api/updates/manifest`;
    expect(await doctor()).toBe(1);
    expect(line("the certificate matches the server's signature")).toMatch(
      /FAIL.*Cannot check certs\/certificate\.pem against the server's signatures: Cannot reach/,
    );
    expect(out.text).toMatch(/FAIL\] the server answers .*ios: cannot reach the app's updates URL/);
    expect(line('the token works')).toMatch(/FAIL.*Cannot reach/);
  });
});
