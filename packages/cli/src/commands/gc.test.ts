import fs from 'node:fs';
import path from 'node:path';
import type { AssetGcResponse } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { fileOf, hashOfBytes, publishRelease } from '../../../server/test/support/publisher.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput, RecordingFetch } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { describeGc, formatBytes, gcCommand } from './gc.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describeEachEngine('ferry gc against a real server', (engine) => {
  let server: TestServer;
  let recorder: RecordingFetch;
  let out: CapturedOutput;
  let stderr: string;
  let env: Record<string, string | undefined>;
  let counter = 0;

  beforeAll(async () => {
    // No grace period: what the tests publish is collectable at once.
    server = await startTestServer(engine, { env: { ASSET_GC_GRACE_SECONDS: '0' } });
  });
  afterAll(async () => server?.close());
  beforeEach(() => {
    recorder = new RecordingFetch();
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    env = { OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: server.token, GITHUB_ACTOR: 'octocat', GITHUB_RUN_ID: '77' };
  });
  afterEach(() => vi.restoreAllMocks());

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    gcCommand(() => ({ env, out, fetch: recorder.fetch }))(program);
    return main(['node', 'ferry', ...args], program);
  };

  /** A track with `count` releases, each with a bundle of its own; returns the bundles' keys' hashes. */
  const publishTrack = async (count: number) => {
    const track = { channel: 'production' as const, platform: 'ios' as const, runtimeVersion: `8.${++counter}.0(1)` };
    const hashes: string[] = [];
    for (let n = 1; n <= count; n++) {
      const launch = fileOf(`bundle ${counter}-${n} `.repeat(100), 'application/javascript', '.bundle');
      await publishRelease(server, { ...track, launch });
      hashes.push(hashOfBytes(launch.body));
    }
    return { track, hashes };
  };
  const stored = async (hash: string) => {
    for await (const object of server.app.objectStore.list('updates/')) if (object.key.endsWith(hash)) return true;
    return false;
  };

  it('is a dry run by default: it reports what would go and deletes nothing', async () => {
    const { hashes } = await publishTrack(3);
    expect(await ferry('gc', '--keep', '1')).toBe(0);
    expect(out.text).toMatch(/^Dry run: nothing was deleted/);
    expect(out.text).toMatch(/Would delete: \d+ objects/);
    expect(out.text).toContain(hashes[0]);
    for (const hash of hashes) expect(await stored(hash)).toBe(true);
    const [request] = recorder.requests;
    expect(request).toMatchObject({ method: 'POST', url: `${server.url}/api/updates/gc`, status: 200 });
  });

  it('--apply deletes, keeping the newest --keep releases of each track, and is audited with the CI actor', async () => {
    const { hashes } = await publishTrack(4);
    expect(await ferry('gc', '--keep', '2', '--apply')).toBe(0);
    expect(out.text).toMatch(/^Garbage collection done\./);
    expect(out.text).toMatch(/Deleted: \d+ objects/);
    expect(await stored(hashes[0]!)).toBe(false);
    expect(await stored(hashes[1]!)).toBe(false);
    expect(await stored(hashes[2]!)).toBe(true);
    expect(await stored(hashes[3]!)).toBe(true);
    const event = await server.app.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('type', '=', 'assets.collected')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.actor).toBe('octocat');
    const details = typeof event.details === 'string' ? JSON.parse(event.details) : event.details;
    expect(details).toMatchObject({ keepPerTrack: 2, runId: '77' });
  });

  it('--verify reads every kept asset, names each release with a missing or corrupt one, and exits 1', async () => {
    const { track, hashes } = await publishTrack(2);
    expect(await ferry('gc', '--verify', '--keep', '2')).toBe(0);
    expect(out.text).toMatch(/^Checked \d+ objects \(.*\) listed by \d+ kept releases/);
    expect(out.text).toContain('Every asset they list is stored with the bytes its hash names.');

    // Behind Ferry's back: the newest bundle is deleted, the one before it overwritten.
    const dataFile = (hash: string) =>
      path.join(server.dataDir, 'objects', 'data', 'updates', track.channel, track.runtimeVersion, 'assets', hash);
    fs.rmSync(dataFile(hashes[1]!));
    fs.writeFileSync(dataFile(hashes[0]!), 'other bytes');
    out = new CapturedOutput();
    expect(await ferry('gc', '--verify', '--keep', '2')).toBe(1);
    expect(out.text).toMatch(/kept releases? list assets that are missing or corrupt/);
    expect(out.text).toMatch(
      new RegExp(`missing +\\S+ production/ios/${escapeRegExp(track.runtimeVersion)} \\S+${hashes[1]}`),
    );
    expect(out.text).toMatch(
      new RegExp(`corrupt +\\S+ production/ios/${escapeRegExp(track.runtimeVersion)} \\S+${hashes[0]}`),
    );
    expect(stderr).toMatch(/kept release\(s\) list missing or corrupt assets/);
    expect(recorder.requests.at(-1)).toMatchObject({ url: `${server.url}/api/updates/gc/verify`, status: 200 });
    // Nothing was deleted by the check.
    expect(await stored(hashes[0]!)).toBe(true);
  });

  it('--verify with --apply is refused before any request', async () => {
    expect(await ferry('gc', '--verify', '--apply')).toBe(1);
    expect(stderr).toMatch(/--verify deletes nothing/);
    expect(recorder.requests).toEqual([]);
  });

  it('--json prints the server answer', async () => {
    await publishTrack(2);
    expect(await ferry('gc', '--json')).toBe(0);
    const answer = JSON.parse(out.text) as AssetGcResponse;
    expect(answer).toMatchObject({ dryRun: true, keepPerTrack: 10, graceSeconds: 0 });
  });

  it.each([['0'], ['1001'], ['1.5'], ['two'], ['-1']])('--keep %s is refused before any request', async (value) => {
    expect(await ferry('gc', '--keep', value)).toBe(1);
    expect(stderr).toMatch(/a whole number from 1 to 1000/);
    expect(recorder.requests).toEqual([]);
  });

  it('without a release token it stops before any request', async () => {
    env.OTA_RELEASE_TOKEN = undefined;
    expect(await ferry('gc')).toBe(1);
    expect(stderr).toMatch(/OTA_RELEASE_TOKEN/);
    expect(recorder.requests).toEqual([]);
  });

  it('a wrong token is the server refusal, exit 1', async () => {
    env.OTA_RELEASE_TOKEN = 'not-the-token-0123456789abcdef';
    expect(await ferry('gc', '--apply')).toBe(1);
    expect(stderr).toMatch(/ferry: /);
    expect(recorder.requests.map((r) => r.status)).toEqual([401]);
  });
});

const answer = (over: Partial<AssetGcResponse> = {}): AssetGcResponse => ({
  dryRun: false,
  keepPerTrack: 10,
  graceSeconds: 86_400,
  tracks: 2,
  releases: 30,
  releasesKept: 21,
  kept: { objects: 40, bytes: 5_000_000 },
  young: { objects: 0, bytes: 0 },
  collected: { objects: 12, bytes: 2048, assets: 4, encodedForms: 8, patches: 0 },
  failed: { objects: 0, bytes: 0 },
  sample: ['updates/production/1.0.0/assets/x'],
  ...over,
});

it('a deletion the server could not make exits 1 and says the next run tries again', async () => {
  const out = new CapturedOutput();
  const program = new Command('ferry').exitOverride();
  const fetch = (async () =>
    new Response(JSON.stringify(answer({ failed: { objects: 2, bytes: 300 } })), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;
  gcCommand(() => ({ env: { OTA_SERVER_URL: 'http://127.0.0.1:9', OTA_RELEASE_TOKEN: 't'.repeat(32) }, out, fetch }))(
    program,
  );
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await main(['node', 'ferry', 'gc', '--apply'], program)).toBe(1);
    expect(out.text).toMatch(/Could not delete 2 objects \(300 B\): they are still stored/);
    expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/2 object\(s\) could not be deleted/);
  } finally {
    stderr.mockRestore();
  }
});

it('describes what stays, what went and what waits for the grace period', () => {
  expect(describeGc(answer({ young: { objects: 3, bytes: 1536 } }))).toBe(
    [
      'Garbage collection done.',
      'Kept 21 of 30 releases in 2 tracks (the newest 10 per track, each head, rollout fallback and running or halted rollout): 40 objects (4.8 MiB) of assets they list.',
      'Deleted: 12 objects (2.0 KiB), 4 assets, 8 compressed forms and 0 bundle patches.',
      'Left for a later run: 3 objects (1.5 KiB) younger than the grace period (24 h); a publish may be about to list them.',
      'Among them:',
      '  updates/production/1.0.0/assets/x',
      '',
    ].join('\n'),
  );
  expect(formatBytes(0)).toBe('0 B');
  expect(formatBytes(1023)).toBe('1023 B');
  expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
});
