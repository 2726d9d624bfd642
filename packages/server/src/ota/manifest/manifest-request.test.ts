import { describe, expect, it } from 'vitest';
import { namespaceOf, negotiateManifestFormat, parseManifestRequest } from './manifest-request.js';

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
  ])('accept %j → %s', (accept, expected) => {
    expect(negotiateManifestFormat(accept)).toBe(expected);
  });
});

describe('namespaceOf', () => {
  it.each([
    [{ 'expo-platform': 'ios', 'expo-runtime-version': '1', 'expo-channel-name': 'production' }, 'expo'],
    [{ 'ota-platform': 'ios', 'ota-runtime-version': '1', 'ota-channel-name': 'production' }, 'ota'],
    [{}, 'ota'],
    [{ 'expo-platform': 'ios', 'ota-runtime-version': '1', 'ota-channel-name': 'production' }, 'ota'],
    [{ 'expo-platform': 'ios' }, 'expo'],
  ])('%j → %s', (headers, ns) => {
    expect(namespaceOf(headers)).toBe(ns);
  });
});

describe('parseManifestRequest', () => {
  const base = { 'expo-platform': 'android', 'expo-runtime-version': '1.0.0(3)', 'expo-channel-name': 'development' };

  it('reads the track and the ids', () => {
    const id = 'B15ED6D8-F39B-04AD-A248-FA3B95FD7E0E';
    expect(parseManifestRequest({ ...base, 'expo-current-update-id': id, 'expo-embedded-update-id': id })).toEqual({
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
});
