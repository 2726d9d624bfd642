import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { MANIFEST_REQUEST_HEADERS } from './manifest-headers.js';

const NAMES = MANIFEST_REQUEST_HEADERS.map((header) => header.name);

/** The module loaded afresh: its tables are then made inside the test, where mutation testing sees them. */
async function fresh() {
  vi.resetModules();
  return import('./manifest-headers.js');
}

describe('the table', () => {
  it('declares the headers of both namespaces and the shared ones, each once', async () => {
    const { MANIFEST_REQUEST_HEADERS } = await fresh();
    const NAMES = MANIFEST_REQUEST_HEADERS.map((header) => header.name);
    expect(NAMES).toEqual([
      'accept',
      'eas-client-id',
      'expo-recent-failed-update-ids',
      'expo-fatal-error',
      ...['ota', 'expo'].flatMap((ns) =>
        [
          'protocol-version',
          'platform',
          'runtime-version',
          'channel-name',
          'current-update-id',
          'embedded-update-id',
        ].map((name) => `${ns}-${name}`),
      ),
    ]);
  });

  it.each([
    ['track', ['`<ns>-platform`', '`<ns>-runtime-version`', '`<ns>-channel-name`']],
    ['selects', ['`<ns>-current-update-id`', '`<ns>-embedded-update-id`', '`accept`', '`eas-client-id`']],
    ['refuses', ['`<ns>-protocol-version`']],
    ['reports', ['`expo-recent-failed-update-ids`', '`expo-fatal-error`']],
  ] as const)('lists the %s headers for the OpenAPI text', async (role, names) => {
    expect((await fresh()).headersOfRole(role)).toEqual(names);
  });

  it("writes a namespace's request headers, leaving out absent fields", async () => {
    const { requestHeaders } = await fresh();
    expect(
      requestHeaders('expo', { platform: 'ios', channel: 'production', currentUpdateId: undefined }),
    ).toStrictEqual({
      'expo-platform': 'ios',
      'expo-channel-name': 'production',
    });
  });
});

describe('pickHeaders', () => {
  it.each(NAMES)('picks %s, and nothing else', async (name) => {
    const { pickHeaders } = await fresh();
    expect([...pickHeaders([name, 'value', 'x-other', 'ignored'])]).toEqual([[name, 'value']]);
  });

  it.each([
    ['lowercase', ['expo-platform', 'ios'], 'expo-platform', 'ios'],
    ['any spelling', ['Expo-Platform', 'ios'], 'expo-platform', 'ios'],
    ['upper case', ['EAS-CLIENT-ID', 'a'], 'eas-client-id', 'a'],
    ['repeated: joined with ", "', ['accept', 'application/json', 'Accept', '*/*'], 'accept', 'application/json, */*'],
    ['an empty value kept', ['expo-current-update-id', ''], 'expo-current-update-id', ''],
    ['absent', ['host', 'x'], 'expo-platform', undefined],
    ['a name it does not read', ['expo-expect-signature', 'sig'], 'expo-protocol-version', undefined],
    ['upper case, as long as another name', ['OTA-CURRENT-UPDATE-ID', 'c'], 'ota-current-update-id', 'c'],
  ] as const)('%s', async (_case, raw, name, expected) => {
    const picked = (await fresh()).pickHeaders(raw);
    expect(picked.get(name)).toBe(expected);
    // Nothing else is picked.
    expect([...picked.values()]).toEqual(expected === undefined ? [] : [expected]);
  });

  it("agrees with Node's own request.headers over a real socket", async () => {
    const { pickHeaders } = await fresh();
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
    const picked = pickHeaders(request.rawHeaders);
    for (const name of NAMES) expect([name, picked.get(name)]).toEqual([name, request.headers[name]]);
    expect(picked.get('eas-client-id')).toBe('0c9c0b7e, second');
  });
});
