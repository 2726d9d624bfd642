import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { type WarmedTrack, warmUpHeaders, warmUpManifestPath, warmUpPath } from './manifest-warm-up.js';

const tracks: WarmedTrack[] = [
  { track: { app: 'default', platform: 'ios', runtimeVersion: '1.0.0', channel: 'production' }, headId: 'head-a' },
  { track: { app: 'default', platform: 'android', runtimeVersion: '2.0.0', channel: 'development' }, headId: 'head-b' },
];
const EMBEDDED = 'embedded-of-the-warm-up';

describe('warmUpHeaders', () => {
  it.each([
    [0, '1.0.0', 'ios', 'production', EMBEDDED],
    [1, '2.0.0', 'android', 'development', EMBEDDED],
    [2, '1.0.0', 'ios', 'production', 'head-a'],
    [3, '2.0.0', 'android', 'development', 'head-b'],
    [4, '1.0.0', 'ios', 'production', EMBEDDED],
  ])('request %i: track %s (%s, %s), current update %s', (index, runtimeVersion, platform, channel, current) => {
    expect(warmUpHeaders(tracks, index, EMBEDDED)).toEqual({
      accept: 'multipart/mixed,application/expo+json,application/json',
      'expo-protocol-version': '1',
      'expo-platform': platform,
      'expo-runtime-version': runtimeVersion,
      'expo-channel-name': channel,
      'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"',
      'expo-current-update-id': current,
      'expo-embedded-update-id': EMBEDDED,
    });
  });
});

/** A listener answering like the manifest path (manifest-answer.ts): 200, a body, its content-length. */
function recording(answer: (request: IncomingMessage, response: ServerResponse) => void = answerManifest) {
  const seen: IncomingMessage[] = [];
  const sockets = new Set<unknown>();
  const listener: RequestListener = (request, response) => {
    seen.push(request);
    sockets.add(request.socket);
    answer(request, response);
  };
  return { listener, seen, sockets };
}
function answerManifest(_request: IncomingMessage, response: ServerResponse) {
  const body = Buffer.alloc(1500, 'm');
  response.writeHead(200, { 'content-type': 'multipart/mixed; boundary=b', 'content-length': String(body.length) });
  response.end(body);
}

describe('warmUpManifestPath', () => {
  it('sends every request through the listener over keep-alive connections, and counts the 200s', async () => {
    const { listener, seen, sockets } = recording();
    const result = await warmUpManifestPath(listener, tracks, 100);
    expect(result).toMatchObject({ sent: 100, answered: 100, stopped: false });
    expect(seen).toHaveLength(100);
    expect(seen.every((request) => request.url === '/api/updates/manifest' && request.method === 'GET')).toBe(true);
    // Both passes over both tracks, with one embedded update id of the warm-up's own.
    const embedded = new Set(seen.map((request) => request.headers['expo-embedded-update-id']));
    expect(embedded.size).toBe(1);
    const current = new Set(seen.map((request) => request.headers['expo-current-update-id']));
    expect(current).toEqual(new Set([...embedded, 'head-a', 'head-b']));
    expect(sockets.size).toBeLessThanOrEqual(32);
    expect(sockets.size).toBeGreaterThan(1);
  });

  it('counts only 200 answers as answered', async () => {
    const { listener } = recording((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    expect(await warmUpManifestPath(listener, tracks, 10)).toMatchObject({ sent: 10, answered: 0 });
  });

  it('sends nothing without tracks or without requests', async () => {
    const { listener, seen } = recording();
    expect(await warmUpManifestPath(listener, [], 100)).toEqual({ sent: 0, answered: 0, stopped: false, ms: 0 });
    expect(await warmUpManifestPath(listener, tracks, 0)).toMatchObject({ sent: 0 });
    expect(seen).toHaveLength(0);
  });

  it('stops at its deadline when answers do not come, and closes its server', async () => {
    const { listener, seen } = recording(() => {});
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    const result = await warmUpManifestPath(listener, tracks, 1000, 100).finally(() => process.off('warning', warned));
    // One abort listener for all 32 connections, not one each (MaxListenersExceededWarning).
    expect(warnings).toEqual([]);
    expect(result.stopped).toBe(true);
    expect(result.answered).toBe(0);
    // At most one request per connection, each waiting for an answer that never came. How many
    // connections opened before the deadline depends on the machine, so only the bound is asserted,
    // and that the server saw no request the warm-up did not send.
    expect(result.sent).toBeLessThanOrEqual(32);
    expect(seen.length).toBeLessThanOrEqual(result.sent);
    expect(seen.every((request) => request.socket.destroyed)).toBe(true);
  });

  it('closes its loopback server when it cannot connect to it', async () => {
    const made = vi.spyOn(http, 'createServer');
    const refused = vi.spyOn(net, 'connect').mockImplementation(() => {
      throw new Error('connect refused by the test');
    });
    try {
      await expect(warmUpManifestPath(recording().listener, tracks, 10)).rejects.toThrow('connect refused by the test');
      const server = made.mock.results[0]?.value as http.Server;
      expect(server.listening).toBe(false);
    } finally {
      refused.mockRestore();
      made.mockRestore();
    }
  });

  it('fails with a clear error on an answer it cannot frame (no content-length)', async () => {
    const { listener } = recording((_request, response) => {
      response.writeHead(200);
      response.write('part');
      response.end('rest');
    });
    await expect(warmUpManifestPath(listener, tracks, 10)).rejects.toThrow(/no content-length: HTTP\/1.1 200 OK/);
  });
});

describe('warmUpPath: where a device of the track’s app asks', () => {
  it.each([
    ['default', '/api/updates/manifest'],
    ['shop', '/api/apps/shop/manifest'],
  ])('%s → %s', (app, path) => {
    expect(warmUpPath({ app })).toBe(path);
  });
});
