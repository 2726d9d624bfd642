import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { appFiles, RELEASE_FILE } from '../../test/support/app-fixture.js';
import { fakeInspector } from '../../test/support/fake-inspector.js';
import { GitFixture } from '../../test/support/git-fixture.js';
import { runCommand } from '../../test/support/run-command.js';
import { bumpCommand } from './bump.js';

const noInspector = fakeInspector({ ios: new Error('not used'), android: new Error('not used') });
const bump = (...args: string[]) => runCommand(bumpCommand({ inspectorFor: noInspector }), ['bump', ...args]);

/** The release file with the given values, everything else (comments, quotes, layout) as in the fixture. */
const releaseWith = (appVersion: string, android: number, ios: string) =>
  RELEASE_FILE.replace("'1.4.0'", `'${appVersion}'`).replace('= 41;', `= ${android};`).replace('"17"', `"${ios}"`);

describe('ferry bump', () => {
  let fixture: GitFixture;

  beforeEach(async () => {
    fixture = await GitFixture.create(appFiles());
    // Store builds of several versions, tagged as the Tag workflow does, on older commits.
    await fixture.tag('native-v1.2.0+30');
    await fixture.commit('1.3.0', { 'release.js': releaseWith('1.3.0', 44, '15') });
    await fixture.tag('native-v1.3.0+44');
    await fixture.commit('hotfix build of 1.3.0', { 'release.js': releaseWith('1.3.0', 43, '16') });
    await fixture.tag('native-v1.3.0+43');
    await fixture.tag('v1.3.0-marketing');
    await fixture.commit('back to current', { 'release.js': RELEASE_FILE });
  });
  afterEach(() => fixture.cleanup());

  it('build: iOS + 1, Android above every native-v tag, formatting kept, old and new printed', async () => {
    const run = await bump('build', '--project', fixture.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.read('release.js')).toBe(releaseWith('1.4.0', 45, '18'));
    expect(run.stdout).toContain('IOS_BUILD_NUMBER: 17 → 18');
    expect(run.stdout).toContain('ANDROID_VERSION_CODE: 41 → 45');
    expect(run.outputs).toMatchObject({ bumped: 'true', 'android-version-code': '45', 'ios-build-number': '18' });
  });

  it('build never resets: a second bump continues from the file, a higher current value wins over tags', async () => {
    await bump('build', '--project', fixture.dir);
    await bump('build', '--project', fixture.dir);
    expect(fixture.read('release.js')).toBe(releaseWith('1.4.0', 46, '19'));
    fixture.write({ 'release.js': releaseWith('1.4.0', 90, '19') });
    await bump('build', '--project', fixture.dir);
    expect(fixture.read('release.js')).toBe(releaseWith('1.4.0', 91, '20'));
  });

  it.each([
    ['patch', '1.4.1'],
    ['minor', '1.5.0'],
    ['major', '2.0.0'],
  ])('%s raises APP_VERSION only', async (kind, version) => {
    const run = await bump(kind, '--project', fixture.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.read('release.js')).toBe(releaseWith(version, 41, '17'));
    expect(run.stdout).toContain(`APP_VERSION: 1.4.0 → ${version}`);
    expect(run.stdout).toMatch(
      /ANDROID_VERSION_CODE 41 is not above the store tag native-v1\.3\.0\+44: run `ferry bump build`/,
    );
    expect(run.outputs).toMatchObject({ bumped: 'true', 'app-version': version });
  });

  it('refuses an unknown kind, and a project without a release control file', async () => {
    expect((await bump('huge', '--project', fixture.dir)).code).toBe(1);
    fixture.write({ 'release.js': null });
    const run = await bump('build', '--project', fixture.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no release control file/);
  });

  it('--file names the release control file explicitly', async () => {
    fixture.write({ 'config/release-values.js': RELEASE_FILE });
    const run = await bump('build', '--project', fixture.dir, '--file', 'config/release-values.js');
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.read('config/release-values.js')).toBe(releaseWith('1.4.0', 45, '18'));
    expect(fixture.read('release.js')).toBe(RELEASE_FILE);
  });
});

describeEachEngine('ferry bump --if-drift against a real server', (engine) => {
  let server: TestServer;
  let fixture: GitFixture;

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (const [platform, runtimeVersion, fingerprint] of [
      ['ios', '1.4.0(17)', 'fp-ios'],
      ['android', '1.4.0(41)', 'fp-android'],
    ] as const) {
      const payload = releasePayload({ platform, runtimeVersion, fingerprint });
      await storeAssets(server, payload);
      const response = await server.authed('/api/updates/release', {
        method: 'POST',
        body: JSON.stringify(payload),
      });
      expect(response.status).toBe(201);
    }
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    fixture = await GitFixture.create(appFiles());
  });
  afterEach(() => fixture.cleanup());

  const driftBump = (ios: string, android: string, runtimeVersions = ['1.4.0(17)', '1.4.0(41)'], url = server.url) =>
    runCommand(
      bumpCommand({
        inspectorFor: fakeInspector({
          ios: { runtimeVersion: runtimeVersions[0] as string, fingerprint: ios },
          android: { runtimeVersion: runtimeVersions[1] as string, fingerprint: android },
        }),
      }),
      ['bump', 'build', '--if-drift', '--project', fixture.dir, '--server', url],
    );

  it('no drift: nothing changes', async () => {
    const run = await driftBump('fp-ios', 'fp-android');
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.read('release.js')).toBe(RELEASE_FILE);
    expect(run.stdout).toMatch(/no drift/);
    expect(run.outputs.bumped).toBe('false');
  });

  it('drift on one platform: bumps the build numbers', async () => {
    const run = await driftBump('fp-ios', 'fp-android-changed');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/android: the fingerprint drifted from the production baseline of 1\.4\.0\(41\)/);
    expect(fixture.read('release.js')).toBe(releaseWith('1.4.0', 42, '18'));
    expect(run.outputs.bumped).toBe('true');
  });

  it('a runtimeVersion without a production release is a new track: no bump', async () => {
    const run = await driftBump('x', 'y', ['1.4.0(18)', '1.4.0(42)']);
    expect(run.code, run.stderr).toBe(0);
    expect(fixture.read('release.js')).toBe(RELEASE_FILE);
  });

  it('a pre-release track never drifts', async () => {
    const run = await driftBump('x', 'y', ['1.4.0-pre', '1.4.0-pre']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.bumped).toBe('false');
  });

  it('an unreachable server: fails without touching the file', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const run = await driftBump('fp-ios', 'changed', undefined, `http://127.0.0.1:${port}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not decide/);
    expect(fixture.read('release.js')).toBe(RELEASE_FILE);
  });
});
