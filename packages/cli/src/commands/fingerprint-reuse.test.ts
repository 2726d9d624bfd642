import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Platform } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { appFiles, RELEASE_FILE } from '../../test/support/app-fixture.js';
import { GitFixture } from '../../test/support/git-fixture.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { runCommand } from '../../test/support/run-command.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import { fingerprintsOnce } from '../fingerprint/fingerprint-reuse.js';
import { expoProjectInspector } from '../gate/expo-project-inspector.js';
import { main } from '../main.js';
import { bumpCommand } from './bump.js';
import { gateCommand } from './gate.js';
import { publishCommand } from './publish.js';

/**
 * Issue 35, item 7: each platform's fingerprint is computed once per command, and once per CI job
 * when FERRY_FINGERPRINT_CACHE names the job's file; never reused once an input changed. The
 * commands run as in a job, one after the other, through their real entry points, with the real
 * reuse and key (git, the stat records of ignored files) on a fixture checkout; only the app's
 * fingerprint command and its app config are fakes. The fake fingerprint hashes what a real one
 * would see change here: the release control file, app.config.ts, a native file in node_modules and
 * one environment variable.
 */

/** An installed app, as resolveAppFingerprintTool finds it (node_modules is git-ignored). */
const INSTALLED: Record<string, string> = {
  'node_modules/expo-updates/package.json': JSON.stringify({
    name: 'expo-updates',
    version: '57.0.99',
    bin: { 'expo-updates': 'bin/cli.js' },
  }),
  'node_modules/expo-updates/bin/cli.js': '',
  'node_modules/expo/package.json': JSON.stringify({ name: 'expo', version: '57.0.0' }),
  'node_modules/expo/fingerprint.js': "module.exports = require('@expo/fingerprint');\n",
  'node_modules/@expo/fingerprint/package.json': JSON.stringify({ name: '@expo/fingerprint', version: '0.99.1' }),
  'node_modules/fake-native/ios/Module.swift': 'class Module {}\n',
};

const releaseWith = (ios: string, android: number) =>
  RELEASE_FILE.replace('"17"', `"${ios}"`).replace('= 41;', `= ${android};`);

/** runtimeVersion per platform from the release control file, as runtimeVersionsFor() makes it. */
function appConfigOf(root: string) {
  const release = fs.readFileSync(path.join(root, 'release.js'), 'utf8');
  const ios = /IOS_BUILD_NUMBER = "(\d+)"/.exec(release)![1];
  const android = /ANDROID_VERSION_CODE = (\d+)/.exec(release)![1];
  return {
    name: 'Fixture',
    slug: 'fixture-app',
    ios: { runtimeVersion: `1.4.0(${ios})`, bundleIdentifier: 'com.example' },
    android: { runtimeVersion: `1.4.0(${android})`, package: 'com.example' },
  };
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

describe('the fingerprint, once per command and once per job', () => {
  let fixture: GitFixture;
  let base: string;
  let work: string;
  let exported: SyntheticExport;
  let env: Record<string, string | undefined>;
  let computed: Array<{ platform: Platform; hash: string }>;

  /** The app's fingerprint command, counted. */
  const compute = async (root: string, platform: Platform) => {
    const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
    const hash = createHash('sha1')
      .update(platform)
      .update(read('release.js'))
      .update(read('app.config.ts'))
      .update(read('node_modules/fake-native/ios/Module.swift'))
      .update(process.env.FERRY_TEST_INPUT ?? '')
      .digest('hex');
    computed.push({ platform, hash });
    return { hash };
  };
  const appConfig = async (root: string) => appConfigOf(root);

  /** One step of the job: the command with the job's environment (as runCommand sets it for the step). */
  const step = (register: (program: Command) => void, args: string[], extra: Record<string, string> = {}) =>
    runCommand(register, args, { ...env, ...extra });

  const gate = () =>
    step(gateCommand({ inspectorFor: expoProjectInspector('ferry gate', { compute, evaluateAppConfig: appConfig }) }), [
      'gate',
      '--base',
      base,
      '--project',
      fixture.dir,
      '--server',
      server.url,
    ]);
  const bump = () =>
    step(bumpCommand({ inspectorFor: expoProjectInspector('ferry bump', { compute, evaluateAppConfig: appConfig }) }), [
      'bump',
      'build',
      '--if-drift',
      '--project',
      fixture.dir,
      '--server',
      server.url,
    ]);

  /** `ferry publish` of the job's export, through main() as publish.test.ts runs it. */
  const publish = async (extra: Record<string, string> = {}) => {
    const out = new CapturedOutput();
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    for (const [name, value] of Object.entries({ ...env, ...extra })) vi.stubEnv(name, value);
    // The job's environment, and the token the publish step alone is given.
    const publishEnv = { ...process.env, OTA_RELEASE_TOKEN: server.token };
    const program = new Command('ferry').exitOverride();
    publishCommand(() => ({
      env: publishEnv,
      out,
      exporter: async () => exported.dir,
      codeSigning: async () => undefined,
      evaluateAppConfig: appConfig,
      fingerprint: fingerprintsOnce({ env: publishEnv, compute, command: 'ferry publish' }),
      git: { commit: async () => 'commit', branch: async () => 'main' },
    }))(program);
    try {
      const code = await main(
        ['node', 'ferry', 'publish', '--channel', 'production', '--project', fixture.dir, '--message', ''],
        program,
      );
      const ids = [...out.text.matchAll(/(ios|android): published release ([0-9a-f-]{36})/g)];
      const stored = Object.fromEntries(
        await Promise.all(
          ids.map(async ([, platform, id]) => [
            platform,
            (await server.releaseStore.findById(id!))?.metadata.fingerprint,
          ]),
        ),
      ) as Partial<Record<Platform, string>>;
      return { code, stdout: out.text, stderr, stored };
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
  };

  /** What compute() gives now, without counting it. */
  const fingerprintNow = async (platform: Platform) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      const hash = (await compute(fixture.dir, platform)).hash;
      computed.pop();
      return hash;
    } finally {
      vi.unstubAllEnvs();
    }
  };

  let track = 0;
  beforeEach(async () => {
    // Each test on tracks of its own: iOS build number and Android version code.
    track++;
    fixture = await GitFixture.create({
      ...appFiles(),
      'release.js': releaseWith(String(100 + track), 1000 + track),
    });
    base = await fixture.git('rev-parse', 'HEAD');
    // A native-affected change for the gate (the app config).
    await fixture.commit('native', { 'app.config.ts': `${fixture.read('app.config.ts')}// native\n` });
    fixture.write(INSTALLED);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-job-'));
    exported = writeSyntheticExport({
      ios: { bundle: bundle('ios'), assets: [asset('png')] },
      android: { bundle: bundle('android'), assets: [asset('png')] },
    });
    // The job's environment (job-level `env:` of a workflow): every step sees the same.
    env = {
      CI: 'true',
      APP_ENV: 'production',
      OTA_SERVER_URL: server.url,
      FERRY_FINGERPRINT_CACHE: path.join(work, 'fingerprints.json'),
    };
    computed = [];
  });
  afterEach(async () => {
    exported.remove();
    fs.rmSync(work, { recursive: true, force: true });
    await fixture.cleanup();
  });

  it('without FERRY_FINGERPRINT_CACHE, each command computes each platform once, and nothing is stored', async () => {
    delete env.FERRY_FINGERPRINT_CACHE;
    const gated = await gate();
    expect(gated.code, gated.stderr).toBe(0);
    expect(computed.map((c) => c.platform)).toEqual(['ios', 'android']);
    const published = await publish();
    expect(published.code, published.stderr).toBe(0);
    expect(computed.map((c) => c.platform).sort()).toEqual(['android', 'android', 'ios', 'ios']);
    expect(published.stored).toEqual({ ios: await fingerprintNow('ios'), android: await fingerprintNow('android') });
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('gate, publish and bump in one job: each platform computed once, by the gate', async () => {
    const gated = await gate();
    expect(gated.code, gated.stderr).toBe(0);
    expect(computed).toHaveLength(2);

    const published = await publish();
    expect(published.code, published.stderr).toBe(0);
    expect(computed).toHaveLength(2);
    expect(published.stored).toEqual({ ios: computed[0]!.hash, android: computed[1]!.hash });
    expect(published.stderr).toContain(`ios: fingerprint ${computed[0]!.hash} (computed by ferry gate in this job`);

    // The bump's drift check reads the same: the baseline is what was just published, no drift.
    const bumped = await bump();
    expect(bumped.code, bumped.stderr).toBe(0);
    expect(bumped.stdout).toContain('no drift');
    expect(computed).toHaveLength(2);
  });

  it.each([
    [
      'a native file in node_modules (git-ignored) changes',
      () => fixture.write({ 'node_modules/fake-native/ios/Module.swift': 'class Module { let x = 1 }\n' }),
    ],
    [
      'a tracked file is edited and not committed',
      () => fixture.write({ 'app.config.ts': `${fixture.read('app.config.ts')}// edited\n` }),
    ],
    [
      'a new commit',
      () => fixture.commit('another', { 'app.config.ts': `${fixture.read('app.config.ts')}// committed\n` }),
    ],
    [
      'an environment variable changes',
      () => {
        env.FERRY_TEST_INPUT = 'other';
      },
    ],
  ])(
    '%s between gate and publish: publish computes again, and the guard sees the new fingerprint',
    async (_name, change) => {
      // The track's baseline is this checkout's fingerprint, published by an earlier job.
      for (const platform of ['ios', 'android'] as const) {
        const payload = releasePayload({
          platform,
          runtimeVersion: appConfigOf(fixture.dir)[platform].runtimeVersion,
          fingerprint: await fingerprintNow(platform),
        });
        await storeAssets(server, payload);
        expect(
          (await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) })).status,
        ).toBe(201);
      }
      expect((await gate()).code).toBe(0);
      expect(computed).toHaveLength(2);

      await change();
      const changed = await fingerprintNow('ios');
      expect(changed).not.toBe(computed[0]!.hash);
      const published = await publish();
      expect(computed).toHaveLength(4);
      // The native change on a production track: the guard refuses with the new fingerprint.
      expect(published.code).toBe(2);
      expect(published.stderr).toContain(`this export:          ${changed}`);
    },
  );

  it('bump --if-drift rewrites the release control file: a later publish of the job computes again', async () => {
    // The production baseline of the current tracks differs: the bump raises the build numbers.
    for (const platform of ['ios', 'android'] as const) {
      const payload = releasePayload({
        platform,
        runtimeVersion: appConfigOf(fixture.dir)[platform].runtimeVersion,
        fingerprint: `old-${platform}`,
      });
      await storeAssets(server, payload);
      expect(
        (await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) })).status,
      ).toBe(201);
    }
    const bumped = await bump();
    expect(bumped.code, bumped.stderr).toBe(0);
    expect(bumped.outputs.bumped).toBe('true');
    expect(computed).toHaveLength(2);

    const published = await publish();
    expect(published.code, published.stderr).toBe(0);
    expect(computed).toHaveLength(4);
    expect(published.stored).toEqual({ ios: await fingerprintNow('ios'), android: await fingerprintNow('android') });
    expect(published.stored.ios).not.toBe(computed[0]!.hash);
  });

  it('a job file inside the checkout is refused for reuse (each write would change the checkout): both compute', async () => {
    env.FERRY_FINGERPRINT_CACHE = fixture.path('fingerprints.json');
    const gated = await gate();
    expect(gated.code, gated.stderr).toBe(0);
    expect(gated.stderr).toContain('names a file in the checkout');
    expect((await publish()).code).toBe(0);
    expect(computed).toHaveLength(4);
    expect(fs.existsSync(fixture.path('fingerprints.json'))).toBe(false);
  });

  it('a store entry of another checkout state is never used: the same job file, a changed tree, a new value', async () => {
    expect((await gate()).code).toBe(0);
    const stored = JSON.parse(fs.readFileSync(env.FERRY_FINGERPRINT_CACHE!, 'utf8')) as {
      entries: Record<string, { hash: string; command: string }>;
    };
    expect(Object.values(stored.entries).map((entry) => entry.command)).toEqual(['ferry gate', 'ferry gate']);
    fixture.write({ 'release.js': releaseWith('999', 9999) });
    const published = await publish();
    expect(published.code, published.stderr).toBe(0);
    expect(computed).toHaveLength(4);
    expect(published.stored.ios).toBe(await fingerprintNow('ios'));
  });
});
