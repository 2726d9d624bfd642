import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFiles } from '../../test/support/app-fixture.js';
import { type FakeIdentity, fakeInspector } from '../../test/support/fake-inspector.js';
import { GitFixture } from '../../test/support/git-fixture.js';
import { runCommand } from '../../test/support/run-command.js';
import { deployCheckCommand } from './deploy-check.js';

describe('ferry deploy-check', () => {
  let fixture: GitFixture;
  beforeAll(async () => {
    fixture = await GitFixture.create(appFiles());
  });
  afterAll(() => fixture.cleanup());

  const check = (ios: FakeIdentity, android: FakeIdentity, ...args: string[]) =>
    runCommand(deployCheckCommand({ inspectorFor: fakeInspector({ ios, android }) }), [
      'deploy-check',
      '--project',
      fixture.dir,
      ...args,
    ]);

  it('a release runtimeVersion passes and names the store tag', async () => {
    const run = await check(
      { runtimeVersion: '1.4.0(17)', fingerprint: '' },
      { runtimeVersion: '1.4.0(41)', fingerprint: '' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ios: runtimeVersion 1.4.0(17)');
    expect(run.stdout).toContain('native-v1.4.0+41');
    expect(run.outputs).toMatchObject({
      tag: 'native-v1.4.0+41',
      'app-version': '1.4.0',
      'android-version-code': '41',
    });
  });

  it('a runtimeVersion ending in -pre is refused with exit 1 and a clear message', async () => {
    const run = await check(
      { runtimeVersion: '1.4.0-pre', fingerprint: '' },
      { runtimeVersion: '1.4.0-pre', fingerprint: '' },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/store deploy refused: this is a pre-release \(ios 1\.4\.0-pre, android 1\.4\.0-pre\)/);
    expect(run.stderr).toMatch(/Set IS_PRERELEASE to false, rebuild/);
    expect(run.stdout).toMatch(/^::error title=Store deploy refused::/m);
    expect(run.outputs.tag).toBeUndefined();
  });

  it('a runtimeVersion that cannot be resolved is refused too', async () => {
    const run = await check(new Error('expo is not installed'), { runtimeVersion: '1.4.0(41)', fingerprint: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot resolve the ios runtimeVersion: expo is not installed/);
  });

  it('--require-clean refuses uncommitted changes to tracked files', async () => {
    const identity = { runtimeVersion: '1.4.0(17)', fingerprint: '' };
    expect((await check(identity, identity, '--require-clean')).code).toBe(0);
    fixture.write({ 'release.js': `${fixture.read('release.js')}// edited\n` });
    const run = await check(identity, identity, '--require-clean');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/uncommitted changes/);
  });
});
