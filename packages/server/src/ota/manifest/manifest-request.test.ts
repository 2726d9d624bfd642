import type { IncomingHttpHeaders } from 'node:http';
import { MANIFEST_NAMESPACES, ManifestRequest, manifestHeaders } from '@ferry/contracts';
import { describe, expect, it, vi } from 'vitest';
import { pickHeaders } from './manifest-headers.js';

import * as request from './manifest-request.js';

/** The table's headers out of a headers object, as a client would send them. */
const pickHeadersOf = (headers: Headers) =>
  pickHeaders(Object.entries(headers).flatMap(([name, value]) => [value ?? []].flat().flatMap((v) => [name, v])));

type Headers = IncomingHttpHeaders | Record<string, string>;
/** The keys the parses below looked their track up by, newest last. */
const lookedUp: string[] = [];
const parseManifestRequest = <T>(headers: Headers, lookup?: (key: string) => T | undefined) =>
  request.parseManifestRequest(pickHeadersOf(headers), 'default', (key) => {
    lookedUp.push(key);
    return lookup?.(key);
  });
const namespaceOf = (headers: Headers) => request.namespaceOf(pickHeadersOf(headers));
const refusalNamespaceOf = (headers: Headers) => request.refusalNamespaceOf(pickHeadersOf(headers));

/** How often an accept header was negotiated (not answered from the memo). */
const negotiations = vi.hoisted(() => ({ count: 0 }));
vi.mock('negotiator', async (importOriginal) => {
  const { default: Negotiator } = await importOriginal<{ default: typeof import('negotiator') }>();
  class CountingNegotiator extends Negotiator {
    constructor(...args: ConstructorParameters<typeof Negotiator>) {
      super(...args);
      negotiations.count += 1;
    }
  }
  return { default: CountingNegotiator };
});

/** A module instance of its own, so a test starts with empty memos. */
async function freshModule() {
  vi.resetModules();
  return import('./manifest-request.js');
}

describe('negotiateManifestFormat', () => {
  it.each([
    [undefined, 'multipart'],
    ['*/*', 'multipart'],
    ['multipart/mixed,application/expo+json,application/json', 'multipart'],
    ['application/expo+json, application/json', 'expo+json'],
    ['application/json', 'json'],
    ['APPLICATION/JSON', 'json'],
    ['application/json, multipart/mixed;q=0.5', 'json'],
    ['text/html', undefined],
    ['multipart/mixed;q=0', undefined],
    // Equal weights: multipart, the one structure that can carry a directive (issue 34, item 9).
    ['application/expo+json, application/json, multipart/mixed', 'multipart'], // the spec's client
    ['application/json,multipart/mixed', 'multipart'],
    ['application/json;q=0.5, multipart/mixed;q=0.5', 'multipart'],
    ['application/json, multipart/*', 'multipart'],
    ['application/json, */*', 'multipart'],
    // Explicit q-values are honoured.
    ['application/expo+json, application/json, multipart/mixed;q=0.9', 'expo+json'],
    ['application/json;q=0.9, multipart/mixed;q=0.8', 'json'],
    ['application/json, */*;q=0.1', 'json'],
    ['multipart/mixed;q=0.2, application/*;q=0.3', 'expo+json'],
    ['application/json, application/expo+json;q=0.8, multipart/mixed;q=0.8', 'json'],
    // The tie is judged by the most specific range that matches multipart (RFC 9110 §12.5.1).
    ['multipart/*;q=0.5, multipart/mixed;q=0.2, application/json;q=0.3', 'json'],
    ['multipart/mixed;q=0.2, multipart/*;q=0.5, application/json;q=0.3', 'json'],
    ['*/*;q=0.5, multipart/mixed;q=0.2, application/json;q=0.3', 'expo+json'],
    ['multipart/*;q=0.2, */*;q=0.9, application/json;q=0.3', 'expo+json'],
    ['multipart/*;q=0.2, */*;q=0.9, application/*;q=0.1', 'multipart'],
    ['application/json;q=0.3, multipart/*;q=0.3, */*;q=0.1', 'multipart'],
    ['application/json;q=0.3, */*;q=0.3', 'multipart'],
    ['application/json;q=0.3, */*;q=0.2', 'json'],
    ['application/json;q=0.3, text/*;q=0.9, */*;q=0.1', 'json'],
  ])('accept %j → %s', async (accept, expected) => {
    // A fresh module: the accept memo would answer a negotiation made before.
    expect((await freshModule()).negotiateManifestFormat(accept)).toBe(expected);
  });
});

describe('clientIdOf', () => {
  it.each([
    ['absent', undefined, undefined],
    ['empty', '', undefined],
    ['one character', 'a', 'a'],
    ['256 characters', 'x'.repeat(256), 'x'.repeat(256)],
    ['257 characters: too long to be an install id', 'x'.repeat(257), undefined],
  ])('%s', (_, id, expected) => {
    expect(request.clientIdOf(pickHeadersOf(id === undefined ? {} : { 'eas-client-id': id }))).toBe(expected);
  });
});

describe('namespaceOf', () => {
  it.each([
    [{ 'expo-platform': 'ios', 'expo-runtime-version': '1', 'expo-channel-name': 'production' }, 'expo'],
    [{ 'ota-platform': 'ios', 'ota-runtime-version': '1', 'ota-channel-name': 'production' }, 'ota'],
    [{}, 'ota'],
    [{ 'expo-platform': 'ios', 'ota-runtime-version': '1', 'ota-channel-name': 'production' }, 'ota'],
    [{ 'expo-platform': 'ios' }, 'expo'],
    [{ 'expo-runtime-version': '1' }, 'expo'],
    [{ 'expo-channel-name': 'production' }, 'expo'],
    [{ 'expo-runtime-version': '1', 'ota-platform': 'ios' }, 'ota'],
    [{ 'expo-channel-name': 'production', 'ota-platform': 'ios' }, 'ota'],
    [{ 'expo-runtime-version': '1', 'expo-channel-name': 'production', 'ota-platform': 'ios' }, 'expo'],
    // Every manifest header counts, not only the track's.
    [{ 'expo-current-update-id': 'x', 'expo-protocol-version': '1', 'ota-platform': 'ios' }, 'expo'],
    [{ 'ota-current-update-id': 'x', 'ota-protocol-version': '1', 'expo-platform': 'ios' }, 'ota'],
    [{ 'ota-current-update-id': 'x', 'expo-platform': 'ios' }, 'ota'],
  ])('%j → %s', (headers, ns) => {
    expect(namespaceOf(headers)).toBe(ns);
  });
});

describe('refusalNamespaceOf: a refusal names the headers of the namespace the client speaks', () => {
  it.each([
    [{}, 'ota', 'ota'],
    [{ 'ota-platform': 'web' }, 'ota', 'ota'],
    [{ 'expo-platform': 'web' }, 'expo', 'expo'],
    [{ 'expo-protocol-version': '1' }, 'expo', 'expo'],
    [{ 'expo-current-update-id': 'x' }, 'expo', 'expo'],
    [{ 'expo-embedded-update-id': 'x', 'ota-platform': 'ios' }, 'ota', 'expo'],
    // Any expo-… manifest header marks an expo-updates client, even where ota-… ones outnumber it.
    [{ 'expo-runtime-version': '1', 'ota-platform': 'ios' }, 'ota', 'expo'],
    [{ 'expo-channel-name': 'production', 'ota-platform': 'ios', 'ota-runtime-version': '1' }, 'ota', 'expo'],
    // Headers that are not manifest headers say nothing about the client.
    [{ 'eas-client-id': 'x', 'expo-recent-failed-update-ids': '"a"', 'ota-platform': 'ios' }, 'ota', 'ota'],
  ] as const)('%j read as %s → %s', (headers, read, ns) => {
    expect([read, refusalNamespaceOf(headers)]).toEqual([namespaceOf(headers), ns]);
  });

  it.each([
    [
      'an expo client that sent only its protocol version',
      { 'expo-protocol-version': '1' },
      ['headers.expo-platform', 'headers.expo-runtime-version', 'headers.expo-channel-name'],
    ],
    [
      'an expo client whose channel header came from the spec',
      { 'expo-runtime-version': '1.0.0', 'ota-channel-name': 'production' },
      ['headers.expo-platform', 'headers.expo-channel-name'],
    ],
    [
      'an expo client outnumbered by ota headers',
      { 'expo-current-update-id': 'latest', 'ota-platform': 'ios', 'ota-runtime-version': '1' },
      [
        'headers.expo-platform',
        'headers.expo-runtime-version',
        'headers.expo-channel-name',
        'headers.expo-current-update-id',
      ],
    ],
    ['the spec client', { 'ota-platform': 'ios' }, ['headers.ota-runtime-version', 'headers.ota-channel-name']],
  ])('%s is refused in its own names', (_, headers, paths) => {
    const parsed = parseManifestRequest(headers);
    if (parsed.ok) throw new Error('expected a refusal');
    const ns = paths[0]!.slice('headers.'.length).split('-')[0];
    expect(parsed.ns).toBe(ns);
    expect((parsed.details.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(paths);
    expect(parsed.message).toBe(
      `The manifest request needs valid ${ns}-platform, ${ns}-runtime-version and ${ns}-channel-name headers; see details.fields.`,
    );
  });

  it('a valid spec request with a stray expo header is still served in ota', () => {
    const parsed = parseManifestRequest({
      'expo-platform': 'android',
      'ota-platform': 'ios',
      'ota-runtime-version': '1',
      'ota-channel-name': 'production',
    });
    expect(parsed).toMatchObject({ ok: true, ns: 'ota', request: { platform: 'ios' } });
  });
});

describe('parseManifestRequest', () => {
  const base = { 'expo-platform': 'android', 'expo-runtime-version': '1.0.0(3)', 'expo-channel-name': 'development' };

  it('reads the track and the ids', () => {
    const id = 'B15ED6D8-F39B-04AD-A248-FA3B95FD7E0E';
    const parsed = parseManifestRequest({ ...base, 'expo-current-update-id': id, 'expo-embedded-update-id': id });
    expect(parsed).toMatchObject({
      ok: true,
      ns: 'expo',
      request: {
        platform: 'android',
        runtimeVersion: '1.0.0(3)',
        channel: 'development',
        currentUpdateId: id,
        embeddedUpdateId: id,
      },
    });
    expect(lookedUp.at(-1)).toBe('default\ndevelopment\nandroid\n1.0.0(3)');
  });

  // The parse reads its headers by names written out; these are the contracts' names.
  it.each(MANIFEST_NAMESPACES)("reads every field under the contracts' %s- header names", (ns) => {
    const names = manifestHeaders(ns);
    const current = '0754dad0-d200-d634-113c-ef1f26106028';
    const embedded = 'd2d5a1a8-ea45-4ba5-9c3b-5b6f9f3d8e11';
    const parsed = parseManifestRequest({
      [names.protocolVersion]: '1',
      [names.platform]: 'ios',
      [names.runtimeVersion]: `contracts-${ns}`,
      [names.channel]: 'production',
      [names.currentUpdateId]: current,
      [names.embeddedUpdateId]: embedded,
    });
    expect(parsed).toMatchObject({
      ok: true,
      ns,
      request: {
        platform: 'ios',
        runtimeVersion: `contracts-${ns}`,
        channel: 'production',
        currentUpdateId: current,
        embeddedUpdateId: embedded,
      },
    });
    expect(lookedUp.at(-1)).toBe(`default\nproduction\nios\ncontracts-${ns}`);
    expect(parseManifestRequest({ [names.protocolVersion]: '2', [names.platform]: 'ios' })).toMatchObject({
      ok: false,
      ns,
      status: 406,
    });
  });

  it('treats an empty current update id as absent', () => {
    const parsed = parseManifestRequest({ ...base, 'expo-current-update-id': '' });
    expect(parsed.ok && parsed.request.currentUpdateId).toBeUndefined();
  });

  it.each([
    ['1', true],
    [' 1 ', true],
    ['0', false],
    ['2', false],
  ])('protocol version %j accepted: %s', (version, ok) => {
    const parsed = parseManifestRequest({ ...base, 'expo-protocol-version': version });
    expect(parsed.ok).toBe(ok);
    if (!parsed.ok) expect(parsed.status).toBe(406);
  });

  it('names every failing header in its own namespace', () => {
    const parsed = parseManifestRequest({ 'expo-platform': 'web', 'expo-channel-name': 'qa' });
    expect(parsed).toMatchObject({ ok: false, status: 400, code: 'VALIDATION_FAILED' });
    if (parsed.ok) return;
    expect((parsed.details.fields as Array<{ path: string }>).map((f) => f.path)).toEqual([
      'headers.expo-platform',
      'headers.expo-runtime-version',
      'headers.expo-channel-name',
    ]);
  });

  it('a protocol version it does not serve is 406 naming the header and the supported version', () => {
    expect(parseManifestRequest({ ...base, 'expo-runtime-version': '4.0.6', 'expo-protocol-version': '2' })).toEqual({
      ok: false,
      ns: 'expo',
      status: 406,
      code: 'NOT_ACCEPTABLE',
      message: 'Only protocol version 1 is served (expo-protocol-version).',
      details: { header: 'expo-protocol-version', supported: ['1'] },
    });
  });

  it('a missing platform or channel is named, not a crash', () => {
    const fields = (headers: IncomingHttpHeaders) => {
      const parsed = parseManifestRequest(headers);
      return parsed.ok ? [] : (parsed.details.fields as Array<{ path: string }>).map((f) => f.path);
    };
    expect(fields({ 'expo-runtime-version': '4.0.0', 'expo-channel-name': 'production' })).toEqual([
      'headers.expo-platform',
    ]);
    expect(fields({ 'expo-runtime-version': '4.0.0', 'expo-platform': 'ios' })).toEqual(['headers.expo-channel-name']);
  });

  it('the 400 message names the three track headers of the namespace', () => {
    const parsed = parseManifestRequest({ 'ota-platform': 'web' });
    expect(parsed).toMatchObject({
      ok: false,
      ns: 'ota',
      message:
        'The manifest request needs valid ota-platform, ota-runtime-version and ota-channel-name headers; see details.fields.',
    });
  });

  it('trims the update ids, and treats blank ones as absent', () => {
    const id = 'B15ED6D8-F39B-04AD-A248-FA3B95FD7E0E';
    const parsed = parseManifestRequest({
      ...base,
      'expo-current-update-id': `  ${id} `,
      'expo-embedded-update-id': '   ',
    });
    expect(parsed).toMatchObject({ ok: true, request: { currentUpdateId: id } });
    expect(parsed.ok && parsed.request.embeddedUpdateId).toBeUndefined();
  });

  it('reads a repeated header as its values joined by a comma', () => {
    const parsed = parseManifestRequest({ ...base, 'expo-runtime-version': ['1.0.0', '(3)'] });
    expect(parsed).toMatchObject({ ok: true, request: { runtimeVersion: '1.0.0, (3)' } });
  });

  describe('platform and channel names in any case', () => {
    it.each([
      ['expo', 'IOS', 'Production', 'ios', 'production'],
      ['expo', 'Android', 'DEVELOPMENT', 'android', 'development'],
      ['expo', 'iOS', 'production', 'ios', 'production'],
      ['ota', 'ANDROID', 'Production', 'android', 'production'],
      ['ota', 'ios', 'deVelopment', 'ios', 'development'],
    ])('%s: %s / %s → %s / %s', (ns, platform, channel, expectedPlatform, expectedChannel) => {
      const headers = {
        [`${ns}-platform`]: platform,
        [`${ns}-runtime-version`]: '1.0.0(3)',
        [`${ns}-channel-name`]: channel,
      };
      expect(parseManifestRequest(headers)).toMatchObject({
        ok: true,
        ns,
        request: { platform: expectedPlatform, runtimeVersion: '1.0.0(3)', channel: expectedChannel },
      });
      // The cache's key of the normalised track, so every spelling finds the same cached track.
      expect(lookedUp.at(-1)).toBe(`default\n${expectedChannel}\n${expectedPlatform}\n1.0.0(3)`);
    });

    it.each([
      ['expo-platform', 'Web'],
      ['expo-platform', ' ios'],
      ['expo-channel-name', 'Staging'],
      ['expo-channel-name', 'production '],
    ])('%s %j is still refused', (header, value) => {
      const parsed = parseManifestRequest({ ...base, [header]: value });
      expect(parsed).toMatchObject({ ok: false, status: 400 });
      if (parsed.ok) return;
      expect(parsed.details.fields).toEqual([expect.objectContaining({ path: `headers.${header}` })]);
    });

    it('the runtime version keeps its case', () => {
      const parsed = parseManifestRequest({ ...base, 'expo-runtime-version': '1.0.0-RC(3)' });
      expect(parsed).toMatchObject({ ok: true, request: { runtimeVersion: '1.0.0-RC(3)' } });
    });

    it('every spelling reads as the normalised request', () => {
      const spellings = ['ios', 'IOS', 'Ios', 'IOS', 'ios'];
      for (const platform of spellings) {
        const parsed = parseManifestRequest({ ...base, 'expo-platform': platform, 'expo-channel-name': 'PRODUCTION' });
        expect(parsed).toMatchObject({ ok: true, request: { platform: 'ios', channel: 'production' } });
      }
    });
  });
});

describe('the shortcut for a track in memory gives what the full parse gives', () => {
  const track = { 'expo-platform': 'ios', 'expo-runtime-version': '1.0.0', 'expo-channel-name': 'production' };
  const id = '0754dad0-d200-d634-113c-ef1f26106028';
  const cases: Array<[string, Headers]> = [
    ['the track alone', track],
    ['with update ids', { ...track, 'expo-current-update-id': id, 'expo-embedded-update-id': id.toUpperCase() }],
    ['with padded and blank ids', { ...track, 'expo-current-update-id': ` ${id} `, 'expo-embedded-update-id': ' ' }],
    ['in any case', { ...track, 'expo-platform': 'IOS', 'expo-channel-name': 'Production' }],
    ['a malformed current id', { ...track, 'expo-current-update-id': 'latest' }],
    ['a malformed embedded id', { ...track, 'expo-embedded-update-id': `${id}0` }],
    ['a protocol version it does not serve', { ...track, 'expo-protocol-version': '2' }],
    [
      'in the ota namespace',
      { 'ota-platform': 'ios', 'ota-runtime-version': '1.0.0', 'ota-channel-name': 'production' },
    ],
  ];
  it.each(cases)('%s', (_, headers) => {
    const found = { track: 'in memory' };
    const lookups: string[] = [];
    const shortcut = parseManifestRequest(headers, (key) => {
      lookups.push(key);
      return key === 'default\nproduction\nios\n1.0.0' ? found : undefined;
    });
    const full = parseManifestRequest(headers);
    if (full.ok) {
      expect(shortcut).toEqual({ ...full, found });
      expect(lookups).toEqual(['default\nproduction\nios\n1.0.0']);
    } else expect(shortcut).toEqual(full);
  });

  it('a request whose track it finds is not parsed again; one with a malformed id is', () => {
    const parse = vi.spyOn(ManifestRequest, 'safeParse');
    try {
      const found = { track: 'in memory' };
      const lookup = () => found;
      expect(parseManifestRequest({ ...track, 'expo-current-update-id': id }, lookup)).toMatchObject({
        ok: true,
        found,
      });
      expect(parseManifestRequest({ ...track, 'expo-embedded-update-id': id }, lookup)).toMatchObject({ ok: true });
      expect(parseManifestRequest(track, lookup)).toMatchObject({ ok: true });
      expect(parse).not.toHaveBeenCalled();
      expect(parseManifestRequest({ ...track, 'expo-current-update-id': 'latest' }, lookup)).toMatchObject({
        ok: false,
      });
      expect(parseManifestRequest({ ...track, 'expo-embedded-update-id': 'x' }, lookup)).toMatchObject({ ok: false });
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });

  it('a key it does not find is parsed in full, and a track that does not validate is refused', () => {
    expect(parseManifestRequest({ ...track, 'expo-platform': 'web' }, () => undefined)).toMatchObject({ ok: false });
    expect(parseManifestRequest(track, () => undefined)).toMatchObject({ ok: true, found: undefined });
  });
});

describe('the accept memo', () => {
  it('negotiates each accept header once, also after other headers', async () => {
    const { negotiateManifestFormat: negotiate } = await freshModule();
    const before = negotiations.count;
    expect(negotiate('application/json')).toBe('json');
    expect(negotiate('text/html')).toBeUndefined();
    expect(negotiate(undefined)).toBe('multipart');
    expect(negotiations.count - before).toBe(3);
    expect(negotiate('application/json')).toBe('json');
    expect(negotiate('text/html')).toBeUndefined();
    expect(negotiate(undefined)).toBe('multipart');
    expect(negotiate('*/*')).toBe('multipart'); // what a missing header means
    expect(negotiations.count - before).toBe(3);
  });

  it('remembers 1000 accept headers, then starts over', async () => {
    const { negotiateManifestFormat: negotiate } = await freshModule();
    const accept = (i: number) => `application/json, x/y${i}`;
    const before = negotiations.count;
    for (let i = 0; i < 1000; i++) negotiate(accept(i));
    expect(negotiations.count - before).toBe(1000);
    negotiate(accept(0));
    expect(negotiations.count - before).toBe(1000);
    negotiate(accept(1000)); // the memo is full: emptied before this one is stored
    negotiate(accept(0));
    expect(negotiations.count - before).toBe(1002);
  });

  it.each([
    [1023, true],
    [1024, true],
    [1025, false],
  ])('an accept header of %i characters is remembered: %s', async (length, remembered) => {
    const { negotiateManifestFormat: negotiate } = await freshModule();
    const prefix = 'application/json, x/';
    const accept = prefix + 'a'.repeat(length - prefix.length);
    const before = negotiations.count;
    expect(negotiate(accept)).toBe('json');
    expect(negotiate(accept)).toBe('json');
    expect(negotiations.count - before).toBe(remembered ? 1 : 2);
  });
});
