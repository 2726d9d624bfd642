import { type Platform, PromoteResponse } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput, RecordingFetch } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import { main } from '../main.js';
import { auditCommand } from './audit.js';
import { promoteCommand } from './promote.js';
import { publishCommand } from './publish.js';
import { releasesCommand } from './releases.js';
import { rollbackCommand } from './rollback.js';
import { rolloutCommand } from './rollout.js';

let counter = 0;

/**
 * Release groups from the CLI, through its real entry point against a real server: `ferry publish`
 * of both platforms makes one group; `ferry releases` shows it; `ferry rollout`, `ferry rollback`
 * (and --to-embedded) act on it with --group or --platform all; `ferry promote` republishes it to
 * another channel; `ferry audit --newest` reads the log newest first with the server's cursor.
 */
describeEachEngine('ferry and release groups', (engine) => {
  let server: TestServer;
  let exported: SyntheticExport;
  let out: CapturedOutput;
  let stderr: string;
  let runtimeVersions: Record<Platform, string>;
  let fingerprint: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    exported = writeSyntheticExport({
      ios: { bundle: bundle('ios'), assets: [asset('png')] },
      android: { bundle: bundle('android'), assets: [asset('png')] },
    });
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
    counter++;
    runtimeVersions = { ios: `8.${counter}.0(10)`, android: `8.${counter}.0(20)` };
    fingerprint = 'fp-1';
  });
  afterEach(() => vi.restoreAllMocks());

  const env = (extra: Record<string, string> = {}) => ({
    CI: 'true',
    OTA_SERVER_URL: server.url,
    OTA_RELEASE_TOKEN: server.token,
    GITHUB_ACTOR: 'carol',
    ...extra,
  });
  const run = (register: (program: Command) => void, args: string[]) => {
    const program = new Command('ferry').exitOverride();
    register(program);
    return main(['node', 'ferry', ...args], program);
  };
  const publish = (channel: 'development' | 'production', ...args: string[]) =>
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
          ios: { runtimeVersion: runtimeVersions.ios, bundleIdentifier: 'com.example' },
          android: { runtimeVersion: runtimeVersions.android, package: 'com.example' },
          updates: { requestHeaders: { 'expo-channel-name': channel } },
        }),
        fingerprint: async () => ({ hash: fingerprint }),
        git: { commit: async () => 'c0ffee', branch: async () => 'main', subject: async () => 'A change' },
        fetch: new RecordingFetch().fetch,
        retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
      })),
      ['publish', '--channel', channel, '--dist', exported.dir, ...args],
    );
  const ferry = (register: typeof rolloutCommand, ...args: string[]) =>
    run(
      register(() => ({ env: env(), out })),
      args,
    );
  const tracks = (channel = 'production') =>
    (['ios', 'android'] as const).map((platform) => ({
      channel: channel as 'production',
      platform,
      runtimeVersion: runtimeVersions[platform],
    }));
  const newest = async (channel = 'production') =>
    Promise.all(tracks(channel).map((track) => server.releaseStore.newest(track)));
  const rolloutOf = async (releaseId: string) => (await server.releaseStore.rollout(releaseId))?.state;

  it('ferry publish sends one group for both platforms; ferry releases shows it', async () => {
    expect(await publish('production')).toBe(0);
    const [ios, android] = await newest();
    expect(ios?.groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(android?.groupId).toBe(ios?.groupId);
    expect(out.text).toContain(`release group ${ios!.groupId}: ios ${ios!.id}, android ${android!.id}`);

    out = new CapturedOutput();
    expect(await ferry(releasesCommand, 'releases', '--group', ios!.groupId!)).toBe(0);
    expect(out.text.split('\n')[1]).toMatch(/^\s+RELEASE\s+TRACK\s+GROUP\s+CREATED/);
    expect(out.text).toContain(`release group ${ios!.groupId}`);
    expect(out.text.match(new RegExp(ios!.groupId!, 'g'))?.length).toBe(3); // the title and both rows

    // One platform alone is a group of its own.
    expect(await publish('production', '--platform', 'ios')).toBe(0);
    const [single] = await newest();
    expect(single?.groupId).not.toBe(ios?.groupId);
  });

  it('ferry rollout --platform all and --group change both platforms; a refusal changes neither', async () => {
    expect(await publish('production')).toBe(0);
    expect(await publish('production', '--rollout', '10')).toBe(0);
    const [ios, android] = await newest();

    out = new CapturedOutput();
    expect(
      await ferry(rolloutCommand, 'rollout', '--channel', 'production', '--platform', 'all', '--percent', '40'),
    ).toBe(0);
    expect(out.text).toContain(`Release group ${ios!.groupId}:`);
    expect(out.text.match(/state: {4}running at 40%/g)).toHaveLength(2);

    expect(await ferry(rolloutCommand, 'rollout', '--group', ios!.groupId!, '--halt')).toBe(0);
    expect([await rolloutOf(ios!.id), await rolloutOf(android!.id)]).toEqual(['halted', 'halted']);
    out = new CapturedOutput();
    expect(await ferry(rolloutCommand, 'rollout', '--group', ios!.groupId!, '--resume', '--json')).toBe(0);
    expect(JSON.parse(out.text)).toMatchObject({
      groupId: ios!.groupId,
      rollouts: [
        { platform: 'ios', state: 'running', percent: 40 },
        { platform: 'android', state: 'running', percent: 40 },
      ],
    });

    // Android completes on its own; the group cannot then take a new share, and iOS keeps 40 %.
    expect(await ferry(rolloutCommand, 'rollout', android!.id, '--complete')).toBe(0);
    expect(await ferry(rolloutCommand, 'rollout', '--group', ios!.groupId!, '--percent', '70')).toBe(1);
    expect(stderr).toMatch(/android: The rollout of release .* is complete/);
    expect(stderr).toContain('Nothing changed on any platform');
    expect((await server.releaseStore.rollout(ios!.id))?.percent).toBe(40);

    expect(await ferry(rolloutCommand, 'rollout', ios!.id, '--group', ios!.groupId!)).toBe(1);
    expect(stderr).toContain('name the rollout');
  });

  it('ferry rollback --platform all rolls both tracks back; --group --to-embedded sends both to the embedded bundle', async () => {
    expect(await publish('production')).toBe(0);
    const before = await newest();
    expect(await publish('production')).toBe(0);
    const after = await newest();

    out = new CapturedOutput();
    expect(await ferry(rollbackCommand, 'rollback', '--channel', 'production', '--platform', 'all')).toBe(0);
    expect(out.text).toContain(`Rolled back release group ${after[0]!.groupId}, every platform`);
    const rolledBack = await newest();
    expect(rolledBack.map((release) => release?.metadata.rolledBackFrom)).toEqual(before.map((release) => release?.id));
    expect(rolledBack[0]?.groupId).toBe(rolledBack[1]?.groupId);

    out = new CapturedOutput();
    expect(await ferry(rollbackCommand, 'rollback', '--group', rolledBack[0]!.groupId!, '--to-embedded')).toBe(0);
    expect(out.text).toContain(`Release group ${rolledBack[0]!.groupId}, every platform:`);
    for (const track of tracks()) {
      expect((await server.releaseStore.timeline(track)).head?.kind).toBe('directive');
      expect(out.text).toContain(
        `Rolled production/${track.platform}/${track.runtimeVersion} back to the embedded bundle`,
      );
    }

    expect(await ferry(rollbackCommand, 'rollback', '--channel', 'production', '--platform', 'ios')).toBe(1);
    expect(stderr).toContain('--runtime-version is required');
    expect(await ferry(rollbackCommand, 'rollback', '--group', rolledBack[0]!.groupId!, '--to', before[0]!.id)).toBe(1);
    expect(stderr).toContain('use --to-group');
  });

  it('ferry promote --from development --to production republishes the newest group, guarded, with a rollout', async () => {
    expect(await publish('development')).toBe(0);
    const source = await newest('development');

    out = new CapturedOutput();
    expect(
      await ferry(
        promoteCommand,
        'promote',
        '--from',
        'development',
        '--to',
        'production',
        '--rollout',
        '25',
        '--json',
      ),
    ).toBe(0);
    const answer = PromoteResponse.parse(JSON.parse(out.text));
    expect(answer.sourceGroupId).toBe(source[0]!.groupId);
    const promoted = await newest('production');
    expect(promoted.map((release) => release?.metadata.promotedFrom)).toEqual(source.map((release) => release?.id));
    expect(promoted.map((release) => release?.groupId)).toEqual([answer.groupId, answer.groupId]);
    expect((await server.releaseStore.rollout(promoted[0]!.id))?.percent).toBe(25);

    // Then the group rollout from the CLI completes it on both platforms.
    expect(await ferry(rolloutCommand, 'rollout', '--group', answer.groupId, '--complete')).toBe(0);
    expect([await rolloutOf(promoted[0]!.id), await rolloutOf(promoted[1]!.id)]).toEqual(['complete', 'complete']);

    // A development build with another native side: the guard refuses it as it refuses a publish (exit 2).
    fingerprint = 'fp-2';
    expect(await publish('development')).toBe(0);
    expect(await ferry(promoteCommand, 'promote', '--from', 'development', '--to', 'production')).toBe(2);
    expect(stderr).toMatch(/ios: The native fingerprint changed/);
    expect((await newest('production')).map((release) => release?.id)).toEqual(promoted.map((release) => release?.id));

    // One platform, named by --release, is a group of one.
    out = new CapturedOutput();
    const [, androidSource] = await newest('development');
    expect(
      await run(
        promoteCommand(() => ({ env: env({ OTA_ALLOW_NATIVE_CHANGE: '1' }), out })),
        ['promote', '--release', androidSource!.id, '--to', 'production'],
      ),
    ).toBe(0);
    expect(out.text).toMatch(/^android: promoted release .* \(development\) to production\/android\//m);
  });

  it('ferry audit --newest reads the log newest first, a page at a time', async () => {
    expect(await publish('production')).toBe(0);
    const [ios, android] = await newest();
    out = new CapturedOutput();
    expect(await ferry(auditCommand, 'audit', '--newest', '--limit', '2', '--ndjson')).toBe(0);
    const lines = out.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((event) => event.releaseId)).toEqual([android!.id, ios!.id]);
    expect(lines[0].seq).toBeGreaterThan(lines[1].seq);

    // More than one page of the server's (500): every event once, newest first, filtered by actor.
    await server.app.database.db
      .insertInto('audit_events')
      .values(
        Array.from({ length: 600 }, (_, i) => ({
          id: crypto.randomUUID(),
          type: 'test.bulk',
          actor: 'bulk-writer',
          details: '{}',
          created_at: Date.parse('2026-01-01T00:00:00Z') + Math.floor(i / 3),
        })),
      )
      .execute();
    out = new CapturedOutput();
    expect(await ferry(auditCommand, 'audit', '--newest', '--limit', '550', '--actor', 'bulk-writer', '--ndjson')).toBe(
      0,
    );
    const all = out.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(all).toHaveLength(550);
    expect(all.every((event) => event.actor === 'bulk-writer')).toBe(true);
    expect(new Set(all.map((event) => event.id)).size).toBe(550);
    const order = all.map((event) => [Date.parse(event.createdAt), event.seq]);
    expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]));
  });
});
