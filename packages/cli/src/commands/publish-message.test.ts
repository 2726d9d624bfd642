import { RELEASE_MESSAGE_MAX_LENGTH } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput, RecordingFetch } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import { main } from '../main.js';
import type { GitReader } from '../publish/ci-metadata.js';
import { publishCommand } from './publish.js';

let trackCounter = 0;

describeEachEngine('ferry publish --message', (engine) => {
  let server: TestServer;
  let exported: SyntheticExport;
  let recorder: RecordingFetch;
  let out: CapturedOutput;
  let stderr: string;
  let env: Record<string, string | undefined>;
  let git: GitReader;
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
    recorder = new RecordingFetch();
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    runtimeVersion = `8.${++trackCounter}.0(1)`;
    env = { CI: 'true', OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: server.token, GITHUB_SHA: 'abc123' };
    git = {
      commit: async () => 'from-git',
      branch: async () => 'main',
      subject: async (commit) => (commit === 'abc123' ? 'Fix the login screen (#42)' : undefined),
    };
  });
  afterEach(() => vi.restoreAllMocks());

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    publishCommand(() => ({
      env,
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
      git,
      fetch: recorder.fetch,
      retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
    }))(program);
    return main(
      ['node', 'ferry', 'publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir, ...args],
      program,
    );
  };
  const storedMetadata = async () =>
    (await server.releaseStore.newest({ channel: 'production', platform: 'ios', runtimeVersion }))?.metadata;

  it('by default the release carries the subject of the commit it records', async () => {
    expect(await ferry()).toBe(0);
    expect(await storedMetadata()).toMatchObject({ commit: 'abc123', message: 'Fix the login screen (#42)' });
  });

  it('--message replaces it', async () => {
    expect(await ferry('--message', 'Hotfix: crash on start — ünïcode')).toBe(0);
    expect((await storedMetadata())?.message).toBe('Hotfix: crash on start — ünïcode');
  });

  it('--message "" publishes without a message', async () => {
    expect(await ferry('--message', '')).toBe(0);
    expect(await storedMetadata()).not.toHaveProperty('message');
  });

  it('a subject the server would refuse is cleaned up, not refused', async () => {
    git.subject = async () => `tab\there\u001b[0m ${'x'.repeat(2000)}`;
    expect(await ferry()).toBe(0);
    const message = (await storedMetadata())?.message;
    expect(message).toMatch(/^tab here \[0m x+…$/);
    expect(message?.length).toBeLessThanOrEqual(RELEASE_MESSAGE_MAX_LENGTH);
  });

  it.each([
    ['a line break', 'one\ntwo'],
    ['a control character', 'a\u0007b'],
    ['more than the bound', 'x'.repeat(RELEASE_MESSAGE_MAX_LENGTH + 1)],
  ])('--message with %s is refused before any request (exit 1)', async (_name, message) => {
    expect(await ferry('--message', message)).toBe(1);
    expect(stderr).toMatch(/--message <text>.*one line of at most 1024 characters/s);
    expect(recorder.requests).toHaveLength(0);
    expect(await storedMetadata()).toBeUndefined();
  });
});
