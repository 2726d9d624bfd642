import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { MANIFEST_REQUEST_HEADERS, type PickedHeaders } from './manifest-headers.js';

const NAMES = MANIFEST_REQUEST_HEADERS.map((header) => header.name);
/** The picked value of a header, by name. */
const pickedValue = (picked: PickedHeaders, name: string) => picked[NAMES.indexOf(name)];

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

  it('reads a field and a shared header from what it picked', async () => {
    const { pickHeaders, fieldHeader, sharedHeader } = await fresh();
    const picked = pickHeaders(['ota-channel-name', 'production', 'expo-channel-name', 'development', 'accept', '*/*']);
    expect(fieldHeader(picked, 'ota', 'channel')).toBe('production');
    expect(fieldHeader(picked, 'expo', 'channel')).toBe('development');
    expect(fieldHeader(picked, 'expo', 'platform')).toBeUndefined();
    expect(sharedHeader(picked, 'accept')).toBe('*/*');
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
  it.each(NAMES)('picks %s, and only into its own place', async (name) => {
    const { pickHeaders } = await fresh();
    const picked = pickHeaders([name, 'value', 'x-other', 'ignored']);
    expect(picked).toHaveLength(NAMES.length);
    expect(picked.flatMap((value, i) => (value === undefined ? [] : [[NAMES[i], value]]))).toEqual([[name, 'value']]);
  });

  it.each([
    ['lowercase', ['expo-platform', 'ios'], 'expo-platform', 'ios'],
    ['any spelling', ['Expo-Platform', 'ios'], 'expo-platform', 'ios'],
    ['upper case', ['EAS-CLIENT-ID', 'a'], 'eas-client-id', 'a'],
    ['repeated: joined with ", "', ['accept', 'application/json', 'Accept', '*/*'], 'accept', 'application/json, */*'],
    ['an empty value kept', ['expo-current-update-id', ''], 'expo-current-update-id', ''],
    ['absent', ['host', 'x'], 'expo-platform', undefined],
    ['a lowercase name as long as one it reads', ['eas-client-ix', 'x'], 'eas-client-id', undefined],
    ['a name as long as one it reads is not it', ['expo-expect-signature', 'sig'], 'expo-protocol-version', undefined],
    ['upper case, as long as another name', ['OTA-CURRENT-UPDATE-ID', 'c'], 'ota-current-update-id', 'c'],
  ] as const)('%s', async (_case, raw, name, expected) => {
    const picked = (await fresh()).pickHeaders(raw);
    expect(pickedValue(picked, name)).toBe(expected);
    // Nothing else is picked.
    expect(picked.filter((value) => value !== undefined)).toEqual(expected === undefined ? [] : [expected]);
  });

  it("agrees with Node's own request.headers, and with pickHeadersOf, over a real socket", async () => {
    const { pickHeaders, pickHeadersOf, sharedHeader } = await fresh();
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
    for (const name of NAMES) expect([name, pickedValue(picked, name)]).toEqual([name, request.headers[name]]);
    expect(pickHeadersOf(request.headers)).toEqual(picked);
    expect(sharedHeader(picked, 'eas-client-id')).toBe('0c9c0b7e, second');
  });

  it('pickHeadersOf joins repeated values as Node does', async () => {
    const { pickHeadersOf, sharedHeader } = await fresh();
    expect(sharedHeader(pickHeadersOf({ accept: ['a/b', 'c/d'] }), 'accept')).toBe('a/b, c/d');
  });
});
