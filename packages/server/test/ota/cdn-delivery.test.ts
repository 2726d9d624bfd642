import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { startCachingCdn } from '../support/caching-cdn.js';
import { fetchManifestLikeExpo } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING } from '../support/test-server.js';

// ASSET_PUBLIC_BASE_URL pointing at a CDN whose origin is Ferry's /objects (docs/ota.md, "A CDN in
// front"): devices behind it get the bundle compressed, and neither the CDN nor Ferry compresses
// anything on request.
it('a device behind a CDN gets the stored brotli form through it, and the CDN asks the origin once per encoding', async () => {
  const cdn = await startCachingCdn();
  const server = await startTestServer('sqlite', { env: { ASSET_PUBLIC_BASE_URL: `${cdn.url}/objects` } });
  cdn.setOrigin(server.url);
  try {
    const text = Buffer.from(`export const screen = () => ${randomBytes(8).toString('hex')};\n`.repeat(3000));
    const track = { channel: 'production', platform: 'ios', runtimeVersion: 'cdn-1' } as const;
    const { id } = await publishRelease(server, {
      ...track,
      launch: fileOf(text, 'application/javascript', '.bundle'),
    });
    const result = await fetchManifestLikeExpo(server.url, 'expo', track, {
      certificatePem: TEST_SIGNING.certificatePem,
      keyId: 'main',
    });
    if (result.kind !== 'update') throw new Error('expected the release');
    expect(result.manifest.id).toBe(id);
    const url = result.manifest.launchAsset.url;
    expect(url.startsWith(`${cdn.url}/objects/`)).toBe(true);

    const puts: string[] = [];
    const put = server.app.objectStore.put.bind(server.app.objectStore);
    server.app.objectStore.put = (key, body, meta) => {
      puts.push(key);
      return put(key, body, meta);
    };
    for (let device = 0; device < 5; device++) {
      for (const acceptEncoding of ['br, gzip, deflate', 'gzip', 'identity']) {
        const response = await fetch(url, { headers: { 'accept-encoding': acceptEncoding } });
        expect(response.status).toBe(200);
        const expected = acceptEncoding.startsWith('br') ? 'br' : acceptEncoding === 'gzip' ? 'gzip' : null;
        expect(response.headers.get('content-encoding')).toBe(expected);
        expect(response.headers.get('vary')).toBe('accept-encoding, a-im, expo-current-update-id');
        // fetch decodes what travelled compressed: every device ends up with the bundle.
        expect(Buffer.from(await response.arrayBuffer()).equals(text)).toBe(true);
      }
    }
    const path = new URL(url).pathname;
    expect(cdn.originRequests.sort()).toEqual([`${path} `, `${path} br`, `${path} gzip`]);
    // Nothing was compressed (or written at all) while devices downloaded.
    expect(puts).toEqual([]);
  } finally {
    await server.close();
    await cdn.close();
  }
});
