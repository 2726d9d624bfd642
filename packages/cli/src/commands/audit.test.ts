import { AuditEvent } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { type AuditDependencies, auditCommand, sinceValue } from './audit.js';

const parseLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => AuditEvent.parse(JSON.parse(line)));

describeEachEngine('ferry audit against a real server', (engine) => {
  let server: TestServer;
  let out: CapturedOutput;
  let stderr: string;
  let clock = Date.parse('2026-05-01T12:00:00.000Z');
  let deps: Partial<AuditDependencies>;

  const publish = async (runtimeVersion: string, overrides: Parameters<typeof releasePayload>[0] = {}) => {
    const payload = releasePayload({ runtimeVersion, ...overrides });
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    return (await response.json()).release.id as string;
  };
  const stored = async () =>
    (await server.app.database.db.selectFrom('audit_events').select(['seq', 'type']).orderBy('seq').execute()).map(
      (row) => ({ seq: Number(row.seq), type: row.type }),
    );

  beforeAll(async () => {
    server = await startTestServer(engine, { now: () => new Date(clock) });
    await publish('5.0.0(1)', { fingerprint: 'fp-1' });
    await publish('5.0.0(1)', { fingerprint: 'fp-2', allowNativeChange: true });
    clock += 2 * 3_600_000;
    await publish('5.0.0(2)', { platform: 'android' });
  });
  afterAll(async () => server?.close());

  beforeEach(() => {
    out = new CapturedOutput();
    stderr = '';
    deps = {};
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    auditCommand(() => ({
      env: { OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: server.token },
      out,
      now: () => new Date(clock),
      ...deps,
    }))(program);
    return main(['node', 'ferry', 'audit', ...args], program);
  };

  it('prints every event as NDJSON, oldest first, when stdout is not a terminal', async () => {
    expect(await ferry()).toBe(0);
    const events = parseLines(out.text);
    expect(events.map(({ seq, type }) => ({ seq, type }))).toEqual(await stored());
    expect(out.text.endsWith('\n')).toBe(true);
    expect(out.text).not.toContain(server.token);
  });

  it('a table on a terminal, or with --table; --ndjson keeps NDJSON on a terminal', async () => {
    out.isTTY = true;
    expect(await ferry()).toBe(0);
    const lines = out.text.trim().split('\n');
    expect(lines[0]).toMatch(/^SEQ\s+TIME\s+TYPE\s+ACTOR\s+TRACK\s+RELEASE\s+DETAILS$/);
    expect(lines).toHaveLength((await stored()).length + 1);
    expect(lines[2]).toMatch(
      /^\d+\s+2026-05-01T12:00:00\.000Z\s+guard\.bypassed\s+\S+\s+production\/ios\/5\.0\.0\(1\)\s+[0-9a-f-]{36}\s+\{/,
    );

    out.text = '';
    expect(await ferry('--ndjson')).toBe(0);
    expect(parseLines(out.text)).toHaveLength((await stored()).length);

    out.isTTY = false;
    out.text = '';
    expect(await ferry('--table', '--type', 'guard.bypassed')).toBe(0);
    expect(out.text.trim().split('\n')).toHaveLength(2);
  });

  it('--type (comma list, repeatable), --since (a time or a duration back), --after, --limit', async () => {
    const all = await stored();
    expect(await ferry('--type', 'guard.bypassed,release.rolled_back', '--type', 'release.created')).toBe(0);
    expect(parseLines(out.text)).toHaveLength(all.length);

    out.text = '';
    expect(await ferry('--type', 'guard.bypassed')).toBe(0);
    expect(parseLines(out.text).map((e) => e.type)).toEqual(['guard.bypassed']);

    out.text = '';
    expect(await ferry('--since', '1h')).toBe(0);
    expect(parseLines(out.text).map((e) => e.runtimeVersion)).toEqual(['5.0.0(2)']);

    out.text = '';
    expect(await ferry('--since', '2026-05-01T12:00:00+00:00', '--platform', 'ios')).toBe(0);
    expect(parseLines(out.text).map((e) => e.type)).toEqual(['release.created', 'guard.bypassed', 'release.created']);

    out.text = '';
    expect(await ferry('--after', String(all[1]!.seq), '--limit', '1')).toBe(0);
    expect(parseLines(out.text).map((e) => e.seq)).toEqual([all[2]!.seq]);
  });

  it('--follow prints new events as they are written, each once, until interrupted', async () => {
    const stop = new AbortController();
    let sleeps = 0;
    const before = (await stored()).length;
    deps = {
      interrupts: () => stop.signal,
      // Each pause of --follow: something happens, then the next poll.
      sleep: async () => {
        sleeps++;
        if (sleeps === 1) await publish('5.1.0(1)');
        if (sleeps === 2) await publish('5.1.0(2)');
        if (sleeps === 3) stop.abort();
      },
    };
    expect(await ferry('--follow', '--interval', '1')).toBe(0);
    const events = parseLines(out.text);
    expect(events.map(({ seq, type }) => ({ seq, type }))).toEqual(await stored());
    expect(events).toHaveLength(before + 2);
    expect(sleeps).toBe(3);
  });

  it('an answer cut off mid-stream is asked again from after the last event printed', async () => {
    let cuts = 0;
    deps = {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (cuts > 0 || !String(input).includes('/api/audit-events')) return response;
        cuts++;
        // The first answer: its first line, then half of the second, then the connection drops.
        const text = await response.text();
        const firstLine = text.slice(0, text.indexOf('\n') + 1);
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode(firstLine + text.slice(firstLine.length, firstLine.length + 10)));
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { status: 200, headers: response.headers });
      },
    };
    expect(await ferry()).toBe(0);
    expect(cuts).toBe(1);
    expect(parseLines(out.text).map(({ seq, type }) => ({ seq, type }))).toEqual(await stored());
  });

  it.each([
    ['a since the server refuses', ['--since', 'yesterday'], /querystring\.since/],
    ['a type that is not one', ['--type', 'Release Created'], /is not an event type/],
    ['both --table and --ndjson', ['--table', '--ndjson'], /cannot be used with option '--ndjson'/],
    ['a release id the server refuses', ['--release', 'nope'], /querystring\.releaseId/],
  ])('%s → exit 1 with a reason', async (_name, args, reason) => {
    expect(await ferry(...args)).toBe(1);
    expect(stderr).toMatch(reason);
    expect(out.text).toBe('');
  });

  it('a wrong token → exit 1, and the token is never printed', async () => {
    const program = new Command('ferry').exitOverride();
    auditCommand(() => ({ env: { OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: 'wrong-token-0123456789' }, out }))(
      program,
    );
    expect(await main(['node', 'ferry', 'audit'], program)).toBe(1);
    expect(stderr).toMatch(/bearer token is not valid/);
    expect(stderr + out.text).not.toContain('wrong-token-0123456789');
  });
});

describe('sinceValue', () => {
  const now = new Date('2026-05-01T12:00:00.000Z');
  it.each([
    ['30s', '2026-05-01T11:59:30.000Z'],
    ['30m', '2026-05-01T11:30:00.000Z'],
    ['24h', '2026-04-30T12:00:00.000Z'],
    ['7d', '2026-04-24T12:00:00.000Z'],
    ['2026-04-01', '2026-04-01'],
    ['2026-04-01T00:00:00Z', '2026-04-01T00:00:00Z'],
    ['yesterday', 'yesterday'],
  ])('%s → %s', (raw, expected) => {
    expect(sinceValue(raw, now)).toBe(expected);
  });
});
