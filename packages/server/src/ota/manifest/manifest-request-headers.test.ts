import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type ManifestRequestHeaderName, manifestRequestHeaders } from './manifest-request-headers.js';

const EVERY_NAME: ManifestRequestHeaderName[] = [
  'accept',
  'eas-client-id',
  'expo-recent-failed-update-ids',
  'expo-fatal-error',
  'expo-protocol-version',
  'expo-platform',
  'expo-runtime-version',
  'expo-channel-name',
  'expo-current-update-id',
  'expo-embedded-update-id',
  'ota-protocol-version',
  'ota-platform',
  'ota-runtime-version',
  'ota-channel-name',
  'ota-current-update-id',
  'ota-embedded-update-id',
];

describe('manifestRequestHeaders', () => {
  it.each(EVERY_NAME)('picks %s, and only into its own field', (name) => {
    const picked = manifestRequestHeaders([name, 'value', 'x-other', 'ignored']);
    expect(Object.keys(picked).sort()).toEqual([...EVERY_NAME].sort());
    expect(Object.entries(picked).filter(([, value]) => value !== undefined)).toEqual([[name, 'value']]);
  });

  it.each([
    ['lowercase', ['expo-platform', 'ios'], 'expo-platform', 'ios'],
    ['any spelling', ['Expo-Platform', 'ios'], 'expo-platform', 'ios'],
    ['upper case', ['EAS-CLIENT-ID', 'a'], 'eas-client-id', 'a'],
    ['repeated: joined with ", "', ['accept', 'application/json', 'Accept', '*/*'], 'accept', 'application/json, */*'],
    ['an empty value kept', ['expo-current-update-id', ''], 'expo-current-update-id', ''],
    ['absent', ['host', 'x'], 'expo-platform', undefined],
    ['a name as long as one it reads is not it', ['expo-expect-signature', 'sig'], 'expo-protocol-version', undefined],
    ['upper case, as long as another name', ['OTA-CURRENT-UPDATE-ID', 'c'], 'ota-current-update-id', 'c'],
  ] as const)('%s', (_case, raw, name, expected) => {
    expect(manifestRequestHeaders(raw)[name]).toBe(expected);
  });

  it('every request gets an object of the same shape', () => {
    const a = manifestRequestHeaders(['expo-platform', 'ios']);
    const b = manifestRequestHeaders(['eas-client-id', 'x', 'accept', '*/*', 'ota-channel-name', 'p']);
    expect(Object.keys(a)).toEqual(Object.keys(b));
  });

  it("agrees with Node's own request.headers for these names, over a real socket", async () => {
    const seen: IncomingMessage[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request);
      response.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const lines = [
      'Accept: multipart/mixed',
      'accept: application/json',
      'EXPO-Platform: ios',
      'expo-runtime-version: 1.0.0 ',
      'Expo-Channel-Name: production',
      'eas-client-id: 0c9c0b7e',
      'eas-client-id: second',
      'Expo-Recent-Failed-Update-Ids: "a", "b"',
      'expo-fatal-error: boom',
      'ota-platform: android',
      'OTA-Current-Update-Id: 1a2b',
      'expo-embedded-update-id:',
      'X-Unrelated: 1',
    ];
    try {
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      await once(socket, 'connect');
      socket.end(`GET /api/updates/manifest HTTP/1.1\r\nHost: x\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
      socket.resume();
      await once(socket, 'close');
    } finally {
      server.close();
    }
    const [request] = seen as [IncomingMessage];
    const picked = manifestRequestHeaders(request.rawHeaders);
    for (const name of EVERY_NAME) expect([name, picked[name]]).toEqual([name, request.headers[name]]);
    expect(picked['eas-client-id']).toBe('0c9c0b7e, second');
  });
});
