import { randomBytes } from 'node:crypto';
import { ReleaseListResponse } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { fileOf, publishRelease } from '../../../server/test/support/publisher.js';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { patchesCell } from '../releases/release-table.js';
import { releasesCommand } from './releases.js';

describeEachEngine('ferry releases against a real server', (engine) => {
  let server: TestServer;
  let out: CapturedOutput;
  let stderr: string;
  /** Newest first, as the listing shows them. */
  const published: Array<{ id: string; track: string; message: string }> = [];

  const publish = async (channel: 'production' | 'development', platform: 'ios' | 'android', runtime: string) => {
    const message = `Change ${published.length + 1} to ${platform}`;
    const payload = releasePayload({
      channel,
      platform,
      runtimeVersion: runtime,
      fingerprint: null,
      metadata: { commit: `c0${published.length}`, branch: 'main', actor: 'ci', message },
    });
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    const id = (await response.json()).release.id as string;
    published.unshift({ id, track: `${channel}/${platform}/${runtime}`, message });
    return id;
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (let round = 0; round < 2; round++) {
      await publish('production', 'ios', '2.0.0(7)');
      await publish('production', 'android', '2.0.0(9)');
      await publish('development', 'ios', '2.1.0-pre');
    }
  });
  afterAll(async () => server?.close());

  beforeEach(() => {
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    releasesCommand(() => ({ env: { OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: server.token }, out }))(program);
    return main(['node', 'ferry', 'releases', ...args], program);
  };
  const rows = () =>
    out.text
      .trim()
      .split('\n')
      .slice(2)
      .filter((line) => !line.startsWith('More:'));
  const json = () => ReleaseListResponse.parse(JSON.parse(out.text));

  it('without a track: every release newest first, with its track, message, and * on each track’s active one', async () => {
    expect(await ferry()).toBe(0);
    const lines = out.text.trim().split('\n');
    expect(lines[0]).toBe('Releases of all tracks, newest first (* = active release of its track):');
    expect(lines[1]).toMatch(
      /^\s+RELEASE\s+TRACK\s+GROUP\s+CREATED\s+POLICY\s+ROLLOUT\s+DEVICES 24H\/7D\s+PATCHES\s+FINGERPRINT\s+COMMIT\s+BRANCH\s+ACTOR\s+MESSAGE\s+NOTE$/,
    );
    expect(rows()).toHaveLength(published.length);
    rows().forEach((row, i) => {
      const release = published[i]!;
      expect(row).toContain(release.id);
      expect(row).toContain(release.track);
      expect(row).toMatch(new RegExp(`${release.message}$`));
      // The first three rows are the newest release of each of the three tracks.
      expect(row.startsWith('*')).toBe(i < 3);
    });
    expect(out.text).not.toContain('More:');
  });

  it.each([
    ['--channel', ['--channel', 'production'], (t: string) => t.startsWith('production/')],
    ['--platform', ['--platform', 'ios'], (t: string) => t.includes('/ios/')],
    ['--runtime-version', ['--runtime-version', '2.0.0(9)'], (t: string) => t.endsWith('/2.0.0(9)')],
  ])('%s alone narrows the list', async (_name, args, keep) => {
    expect(await ferry(...args, '--json')).toBe(0);
    expect(json().releases.map((r) => r.id)).toEqual(published.filter((r) => keep(r.track)).map((r) => r.id));
  });

  it('a whole track keeps the track title, no TRACK column, and * on the active release', async () => {
    expect(await ferry('--channel', 'production', '--platform', 'ios', '--runtime-version', '2.0.0(7)')).toBe(0);
    const lines = out.text.trim().split('\n');
    expect(lines[0]).toBe('Releases of production/ios/2.0.0(7), newest first (* = active):');
    expect(lines[1]).not.toContain('TRACK');
    expect(rows().map((row) => row.slice(0, 1))).toEqual(['*', ' ']);
  });

  it('--json prints { releases, nextCursor } with the messages', async () => {
    expect(await ferry('--json')).toBe(0);
    const body = json();
    expect(body.nextCursor).toBeNull();
    expect(body.releases.map((r) => r.metadata.message)).toEqual(published.map((r) => r.message));
  });

  it('--limit pages; --cursor continues where the page stopped; --all reads every page', async () => {
    expect(await ferry('--limit', '4')).toBe(0);
    expect(rows()).toHaveLength(4);
    const cursor = /More: add --cursor (\S+) /.exec(out.text)?.[1];
    expect(cursor).toBeDefined();

    out.text = '';
    expect(await ferry('--limit', '4', '--cursor', cursor!)).toBe(0);
    expect(out.text.split('\n')[0]).toBe('Releases of all tracks, newest first:');
    // A page that does not start at the newest release marks no release as active.
    expect(rows().map((row) => row.slice(0, 1))).toEqual([' ', ' ']);
    expect(rows().map((row) => row.split(/\s+/)[1])).toEqual(published.slice(4).map((r) => r.id));

    out.text = '';
    expect(await ferry('--limit', '2', '--all', '--json')).toBe(0);
    expect(json()).toEqual({ releases: expect.any(Array), nextCursor: null });
    expect(json().releases.map((r) => r.id)).toEqual(published.map((r) => r.id));
  });

  it('nothing to list says so', async () => {
    expect(await ferry('--runtime-version', '9.9.9')).toBe(0);
    expect(out.text).toBe('No releases for runtimeVersion 9.9.9.\n');
  });

  it.each([
    ['a limit out of range', ['--limit', '101'], /a whole number from 1 to 100/],
    ['an unknown channel', ['--channel', 'staging'], /Allowed choices are development, production/],
    ['--all with --cursor', ['--all', '--cursor', 'abc'], /cannot be used with option '--cursor/],
    ['a cursor no answer gave (the server refuses it)', ['--cursor', 'bm9wZQ'], /cursor must be a nextCursor value/],
  ])('%s → exit 1 with a reason', async (_name, args, reason) => {
    expect(await ferry(...args)).toBe(1);
    expect(stderr).toMatch(reason);
    expect(out.text).toBe('');
  });

  // Last: it publishes to a track of its own, which the listings above do not expect.
  it('each release’s bundle patches: --json passes the server’s list through, the table counts them', async () => {
    const track = { channel: 'production', platform: 'android', runtimeVersion: '5.0.0(5)' } as const;
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `function f${i}_${randomBytes(3).toString('hex')}(){return ${i};}`,
    );
    const first = lines.join('\n');
    // A one-line change: the second release gets a patch from the first.
    const second = first.replace('function f7_', 'function changed_');
    await publishRelease(server, { ...track, launch: fileOf(first, 'application/javascript', '.bundle') });
    const { id } = await publishRelease(server, {
      ...track,
      launch: fileOf(second, 'application/javascript', '.bundle'),
    });
    // The patch is made after the publish: wait until it settled (at a pace within the rate limit).
    let listed: ReleaseListResponse['releases'] = [];
    for (;;) {
      const response = await server.authed(`/api/updates/releases?${new URLSearchParams(track)}`);
      listed = ReleaseListResponse.parse(await response.json()).releases;
      const patches = listed.find((release) => release.id === id)?.patches ?? [];
      if (patches.length > 0 && patches.every((patch) => patch.state !== 'pending')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const args = ['--channel', track.channel, '--platform', track.platform, '--runtime-version', track.runtimeVersion];
    expect(await ferry(...args, '--json')).toBe(0);
    expect(json().releases.map((release) => release.patches)).toEqual(listed.map((release) => release.patches));
    expect(json().releases[0]!.patches).toEqual([
      {
        base: { kind: 'release', updateId: listed[1]!.id },
        state: 'ready',
        bytes: expect.any(Number),
        fullBytes: expect.any(Number),
      },
    ]);

    out.text = '';
    expect(await ferry(...args)).toBe(0);
    const [newestRow, firstRow] = rows();
    expect(newestRow).toContain(`  ${patchesCell(listed[0]!.patches)}  `);
    expect(newestRow).toMatch(/\s0\/0\s+1 ready \(\d+%\)\s/);
    // The track's first release has no earlier one to patch from.
    expect(firstRow).toMatch(/\s0\/0\s+-\s/);
  });
});

describe('ferry releases without a server', () => {
  it('asks for the release token before any request', async () => {
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    const program = new Command('ferry').exitOverride();
    const out = new CapturedOutput();
    releasesCommand(() => ({ env: { OTA_SERVER_URL: 'http://127.0.0.1:9' }, out }))(program);
    expect(await main(['node', 'ferry', 'releases'], program)).toBe(1);
    expect(stderr).toMatch(/OTA_RELEASE_TOKEN/);
    vi.restoreAllMocks();
  });
});
