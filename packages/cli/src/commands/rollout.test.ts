import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { OperatorTokenStore } from '../../../server/src/auth/operator-token-store.js';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { clientHeaders } from '../../../server/test/support/expo-client.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput, RecordingFetch } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import { main } from '../main.js';
import { publishCommand } from './publish.js';
import { releasesCommand } from './releases.js';
import { rollbackCommand } from './rollback.js';
import { rolloutCommand } from './rollout.js';

let trackCounter = 0;

/** `ferry publish --rollout`, `ferry rollout`, `ferry rollback --to-embedded` and `ferry releases` against a real server. */
describeEachEngine('ferry rollout', (engine) => {
  let server: TestServer;
  let exported: SyntheticExport;
  let out: CapturedOutput;
  let stderr: string;
  let runtimeVersion: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    exported = writeSyntheticExport({ ios: { bundle: bundle('ios'), assets: [asset('png')] } });
  });
  afterAll(async () => {
    exported?.remove();
    await server?.close();
  });
  beforeEach(() => {
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    runtimeVersion = `9.${++trackCounter}.0(1)`;
  });
  afterEach(() => vi.restoreAllMocks());

  const env = () => ({
    CI: 'true',
    OTA_SERVER_URL: server.url,
    OTA_RELEASE_TOKEN: server.token,
    GITHUB_ACTOR: 'carol',
  });
  const run = (register: (program: Command) => void, args: string[]) => {
    const program = new Command('ferry').exitOverride();
    register(program);
    return main(['node', 'ferry', ...args], program);
  };
  const publish = (...args: string[]) =>
    run(
      publishCommand(() => ({
        env: env(),
        out,
        exporter: async () => {
          throw new Error('--dist is given');
        },
        codeSigning: async () => undefined,
        evaluateAppConfig: async () => ({
          name: 'Example',
          slug: 'example',
          ios: { runtimeVersion, bundleIdentifier: 'com.example' },
          updates: { requestHeaders: { 'expo-channel-name': 'production' } },
        }),
        fingerprint: async () => ({ hash: 'fp-1' }),
        git: { commit: async () => 'c0ffee', branch: async () => 'main', subject: async () => 'A change' },
        fetch: new RecordingFetch().fetch,
        retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
      })),
      ['publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir, ...args],
    );
  const rollout = (...args: string[]) =>
    run(
      rolloutCommand(() => ({ env: env(), out })),
      ['rollout', ...args],
    );
  const rollback = (...args: string[]) =>
    run(
      rollbackCommand(() => ({ env: env(), out })),
      ['rollback', '--channel', 'production', '--platform', 'ios', '--runtime-version', runtimeVersion, ...args],
    );
  const newestId = async () =>
    (await server.releaseStore.newest({ channel: 'production', platform: 'ios', runtimeVersion }))!.id;

  it('publishes to a share of devices with a halt rule, shows it, widens it and completes it', async () => {
    expect(await publish()).toBe(0);
    expect(await publish('--rollout', '10', '--halt-on-failure-rate', '2%', '--halt-min-devices', '50')).toBe(0);
    const id = await newestId();
    expect(out.text).toContain(`rolling out to 10% of devices`);

    out = new CapturedOutput();
    expect(await rollout(id)).toBe(0);
    expect(out.text).toContain('state:    running at 10%');
    expect(out.text).toContain('halts at 2% failures once 50 devices received it');

    out = new CapturedOutput();
    expect(await rollout(id, '--percent', '50', '--json')).toBe(0);
    expect(JSON.parse(out.text)).toMatchObject({ releaseId: id, percent: 50, state: 'running' });

    out = new CapturedOutput();
    expect(
      await run(
        releasesCommand(() => ({ env: env(), out })),
        ['releases', '--runtime-version', runtimeVersion],
      ),
    ).toBe(0);
    expect(out.text).toContain('50% running');

    out = new CapturedOutput();
    expect(await rollout(id, '--complete')).toBe(0);
    expect(out.text).toContain('state:    complete');
    expect(await rollout(id, '--percent', '20')).toBe(1);
    expect(stderr).toContain('can no longer change');
  });

  it('reverts: the fallback is published again', async () => {
    expect(await publish()).toBe(0);
    const stable = await newestId();
    expect(await publish('--rollout', '30')).toBe(0);
    const staged = await newestId();
    out = new CapturedOutput();
    expect(await rollout(staged, '--revert')).toBe(0);
    expect(out.text).toContain('state:    reverted');
    const copy = await server.releaseStore.newest({ channel: 'production', platform: 'ios', runtimeVersion });
    expect(copy!.metadata.rolledBackFrom).toBe(stable);
  });

  it('takes an operator token as OTA_RELEASE_TOKEN: a viewer reads but is refused a change, a releaser acts under their name', async () => {
    const store = new OperatorTokenStore(server.app.database.db);
    const viewer = await store.create({ name: `cli-viewer-${trackCounter}`, role: 'viewer' }, { actor: 'test' });
    const releaser = await store.create({ name: `cli-releaser-${trackCounter}`, role: 'releaser' }, { actor: 'test' });
    expect(await publish()).toBe(0);
    expect(await publish('--rollout', '10')).toBe(0);
    const id = await newestId();
    const as = (token: string, ...args: string[]) =>
      run(
        rolloutCommand(() => ({ env: { ...env(), OTA_RELEASE_TOKEN: token }, out })),
        ['rollout', ...args],
      );
    expect(await as(viewer.token, id)).toBe(0);
    expect(await as(viewer.token, id, '--percent', '50')).toBe(1);
    expect(stderr).toContain('Only a releaser or an admin may change a rollout; you are signed in as a viewer.');
    expect(await as(releaser.token, id, '--percent', '50')).toBe(0);
    const events = (await (await server.authed(`/api/audit-events?type=rollout.changed&releaseId=${id}`)).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { actor: string });
    // The operator's own name, not the CI actor the CLI reports (GITHUB_ACTOR).
    expect(events.map((event) => event.actor)).toEqual([`operator:cli-releaser-${trackCounter}`]);
  });

  it('refuses bad options before calling the server', async () => {
    expect(await publish('--rollout', '0')).toBe(1);
    expect(await publish('--rollout', '10', '--halt-on-failure-rate', '2')).toBe(1);
    expect(await publish('--halt-on-failure-rate', '2%')).toBe(1);
    expect(stderr).toContain('need --rollout');
    expect(await rollout(randomUUID(), '--percent', '10', '--complete')).toBe(1);
    expect(stderr).toContain('choose one of');
    expect(await rollout(randomUUID())).toBe(1);
    expect(stderr).toContain('No release has the id');
  });

  it('rolls a track back to the embedded bundle', async () => {
    expect(await publish()).toBe(0);
    const current = await newestId();
    out = new CapturedOutput();
    expect(await rollback('--to-embedded')).toBe(0);
    expect(out.text).toContain('back to the embedded bundle');
    const response = await fetch(`${server.url}/api/updates/manifest`, {
      headers: {
        ...clientHeaders('expo', { platform: 'ios', runtimeVersion, channel: 'production' }),
        'expo-current-update-id': current,
        'expo-embedded-update-id': randomUUID(),
      },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"type":"rollBackToEmbedded"');
    expect(await rollback('--to-embedded', '--to', current)).toBe(1);
  });
});
