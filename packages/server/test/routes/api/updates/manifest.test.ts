import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { type Namespace, verifySignatureHeader } from '../../../support/expo-client.js';
import { fileOf, publishRelease } from '../../../support/publisher.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

const NAMESPACES: Namespace[] = ['ota', 'expo'];

const valid = (ns: Namespace, runtimeVersion = '1.0.0(1)') => ({
  [`${ns}-platform`]: 'ios',
  [`${ns}-runtime-version`]: runtimeVersion,
  [`${ns}-channel-name`]: 'production',
});

describeEachEngine('GET /api/updates/manifest', (engine) => {
  let server: TestServer;
  const runtimeVersion = '7.1.0(70)';
  let releaseId: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    ({ id: releaseId } = await publishRelease(server, {
      channel: 'production',
      platform: 'ios',
      runtimeVersion,
      launch: fileOf('console.log(1)', 'application/javascript', '.bundle'),
    }));
  });
  afterAll(async () => server?.close());

  const get = (headers: Record<string, string>) => fetch(`${server.url}/api/updates/manifest`, { headers });

  for (const ns of NAMESPACES) {
    describe(`${ns} namespace`, () => {
      const badHeaders: Array<[string, Record<string, string | undefined>, string]> = [
        ['missing platform', { [`${ns}-platform`]: undefined }, `${ns}-platform`],
        ['unknown platform', { [`${ns}-platform`]: 'web' }, `${ns}-platform`],
        ['unknown platform in upper case', { [`${ns}-platform`]: 'WEB' }, `${ns}-platform`],
        ['missing runtime version', { [`${ns}-runtime-version`]: undefined }, `${ns}-runtime-version`],
        ['empty runtime version', { [`${ns}-runtime-version`]: '' }, `${ns}-runtime-version`],
        ['runtime version with a control character', { [`${ns}-runtime-version`]: '1.0\t1' }, `${ns}-runtime-version`],
        ['runtime version too long', { [`${ns}-runtime-version`]: '1'.repeat(256) }, `${ns}-runtime-version`],
        ['missing channel', { [`${ns}-channel-name`]: undefined }, `${ns}-channel-name`],
        ['unknown channel', { [`${ns}-channel-name`]: 'staging' }, `${ns}-channel-name`],
        ['current update id that is not an id', { [`${ns}-current-update-id`]: 'latest' }, `${ns}-current-update-id`],
      ];
      it.each(badHeaders)('%s → 400 naming %s', async (_name, change, header) => {
        const headers: Record<string, string> = { ...valid(ns) };
        for (const [name, value] of Object.entries(change)) {
          if (value === undefined) delete headers[name];
          else headers[name] = value;
        }
        const response = await get(headers);
        expect(response.status).toBe(400);
        const body = await response.json();
        expect(body.error.code).toBe('VALIDATION_FAILED');
        expect(body.error.details.fields.map((f: { path: string }) => f.path)).toContain(`headers.${header}`);
        expect(response.headers.get(`${ns}-protocol-version`)).toBe('1');
      });

      it.each([
        ['IOS', 'Production'],
        ['iOS', 'PRODUCTION'],
      ])('platform %s and channel %s are read case-insensitively', async (platform, channel) => {
        const response = await get({
          [`${ns}-platform`]: platform,
          [`${ns}-runtime-version`]: runtimeVersion,
          [`${ns}-channel-name`]: channel,
          accept: 'application/json',
        });
        expect(response.status).toBe(200);
        expect((await response.json()).id).toBe(releaseId);
      });

      it.each([
        ['text/html'],
        ['application/xml, text/plain'],
        ['multipart/form-data'],
        ['application/json;q=0, multipart/mixed;q=0'],
      ])('accept %s → 406', async (accept) => {
        const response = await get({ ...valid(ns, runtimeVersion), accept });
        expect(response.status).toBe(406);
        expect((await response.json()).error.code).toBe('NOT_ACCEPTABLE');
      });

      it.each([['0'], ['2']])('protocol version %s → 406', async (version) => {
        const response = await get({ ...valid(ns, runtimeVersion), [`${ns}-protocol-version`]: version });
        expect(response.status).toBe(406);
        expect((await response.json()).error.code).toBe('NOT_ACCEPTABLE');
      });

      it.each([
        [undefined, 'multipart/mixed'],
        ['*/*', 'multipart/mixed'],
        ['multipart/*', 'multipart/mixed'],
        ['multipart/mixed,application/expo+json,application/json', 'multipart/mixed'],
        ['application/expo+json', 'application/expo+json'],
        ['application/json', 'application/json'],
        ['application/json;q=0.9, application/expo+json', 'application/expo+json'],
        ['application/*;q=0.5, multipart/mixed;q=0.1', 'application/expo+json'],
      ])('accept %s → %s', async (accept, expected) => {
        const headers = { ...valid(ns, runtimeVersion), ...(accept ? { accept } : {}) };
        const response = await get(headers);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(new RegExp(`^${expected.replace('+', '\\+')}`));
        await response.arrayBuffer();
      });

      it('the JSON structure is the manifest itself, its signature in a response header', async () => {
        const response = await get({ ...valid(ns, runtimeVersion), accept: 'application/expo+json' });
        const body = Buffer.from(await response.arrayBuffer());
        verifySignatureHeader(
          response.headers.get(`${ns}-signature`) ?? undefined,
          body,
          server.certificatePem,
          'main',
        );
        const manifest = JSON.parse(body.toString('utf8'));
        expect(manifest.id).toBe(releaseId);
        expect(manifest.extra[`${ns}Client`]).toBeDefined();
        expect(response.headers.get('cache-control')).toBe('private, max-age=0');
      });

      it('the signature header is an RFC 8941 dictionary with sig, keyid and alg', async () => {
        const response = await get({ ...valid(ns, runtimeVersion), accept: 'application/json' });
        await response.arrayBuffer();
        expect(response.headers.get(`${ns}-signature`)).toMatch(
          /^sig="[A-Za-z0-9+/]+=*", keyid="main", alg="rsa-v1_5-sha256"$/,
        );
      });
    });
  }

  it('a request without any namespace headers is answered in the spec namespace (ota)', async () => {
    const response = await get({});
    expect(response.status).toBe(400);
    expect(response.headers.get('ota-protocol-version')).toBe('1');
    const fields = (await response.json()).error.details.fields.map((f: { path: string }) => f.path);
    expect(fields).toEqual(['headers.ota-platform', 'headers.ota-runtime-version', 'headers.ota-channel-name']);
  });

  it('an expo client is refused in expo- names, even with a channel header copied from the spec', async () => {
    // expo-updates sends expo-protocol-version and expo-runtime-version itself; the channel header
    // is the team's own requestHeaders entry, here under the spec's name.
    const response = await get({
      'expo-protocol-version': '1',
      'expo-runtime-version': runtimeVersion,
      'ota-channel-name': 'production',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('expo-protocol-version')).toBe('1');
    const { error } = await response.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(
      'The manifest request needs valid expo-platform, expo-runtime-version and expo-channel-name headers; see details.fields.',
    );
    expect(error.details.fields.map((f: { path: string }) => f.path)).toEqual([
      'headers.expo-platform',
      'headers.expo-channel-name',
    ]);
  });

  it('the same bytes are served to every client of a release (signed once)', async () => {
    const first = Buffer.from(await (await get(valid('expo', runtimeVersion))).arrayBuffer());
    const second = Buffer.from(await (await get(valid('expo', runtimeVersion))).arrayBuffer());
    expect(second.equals(first)).toBe(true);
  });

  it('other methods are not allowed to change anything', async () => {
    const response = await fetch(`${server.url}/api/updates/manifest`, { method: 'POST', headers: valid('ota') });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});

describe('GET /api/updates/manifest with OTA_SIGNING_KEY_ID', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { OTA_SIGNING_KEY_ID: 'prod-2026' } });
    await publishRelease(server, {
      channel: 'production',
      platform: 'android',
      runtimeVersion: '1.0.0',
      launch: fileOf('x', 'application/javascript', '.bundle'),
    });
  });
  afterAll(async () => server?.close());

  it('puts the configured keyid in the signature', async () => {
    const response = await fetch(`${server.url}/api/updates/manifest`, {
      headers: {
        'expo-platform': 'android',
        'expo-runtime-version': '1.0.0',
        'expo-channel-name': 'production',
        accept: 'application/json',
      },
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('expo-signature')).toContain('keyid="prod-2026"');
    verifySignatureHeader(
      response.headers.get('expo-signature') ?? undefined,
      body,
      server.certificatePem,
      'prod-2026',
    );
  });
});
