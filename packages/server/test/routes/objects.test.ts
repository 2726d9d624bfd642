import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT_OBJECT_MAX_BYTES } from '../../src/storage/objects/asset-delivery.js';
import { updateAssetKey } from '../../src/storage/objects/object-key.js';
import { hashOfBytes } from '../support/publisher.js';
import { startTestS3, type TestS3 } from '../support/s3.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SENTINEL = `sentinel-${randomBytes(8).toString('hex')}`;

/** A request sent byte-for-byte: fetch would normalise `..` and `%2e` before they reach the server. */
function rawRequest(
  baseUrl: string,
  rawPath: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: rawPath, method, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const TRAVERSALS = [
  '/objects/../secret.txt',
  '/objects/../../etc/passwd',
  '/objects/%2e%2e/secret.txt',
  '/objects/%2E%2E/%2E%2E/etc/passwd',
  '/objects/updates/%2e%2e/%2e%2e/secret.txt',
  '/objects/updates%2F..%2F..%2Fsecret.txt',
  '/objects/updates/..%2F..%2Fsecret.txt',
  '/objects/..%2fsecret.txt',
  '/objects//etc/passwd',
  '/objects/%2Fetc%2Fpasswd',
  '/objects/updates/..\\..\\secret.txt',
  '/objects/updates/%5C..%5C..%5Csecret.txt',
  '/objects/updates/./../secret.txt',
  '/objects/updates/x/%00/secret.txt',
  '/objects/updates/%c0%ae%c0%ae/secret.txt',
  '/objects/meta/updates',
  '/objects/..',
];

for (const adapter of ['local', 's3'] as const) {
  describe(`/objects [${adapter}]`, () => {
    let server: TestServer;
    let s3: TestS3 | undefined;
    let dataDir: string;
    /** Only the local store serves private objects and uploads through /objects; S3 serves them itself. */
    const itLocal = (name: string, test: () => Promise<void>) => {
      if (adapter === 'local') it(name, test);
    };
    beforeAll(async () => {
      s3 = adapter === 's3' ? await startTestS3() : undefined;
      server = await startTestServer('sqlite', { env: { ...s3?.env } });
      dataDir = server.dataDir;
      // Files a traversal would try to read: next to the store, and in the store's root outside data/.
      fs.mkdirSync(path.join(dataDir, 'objects'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'secret.txt'), SENTINEL);
      fs.writeFileSync(path.join(dataDir, 'objects', 'secret.txt'), SENTINEL);
    });
    afterAll(async () => {
      await server?.close();
      await s3?.close();
    });

    const urlOf = (key: string) => `${server.url}/objects/${key.split('/').map(encodeURIComponent).join('/')}`;
    /** Stores an asset as an upload or a publish does: with its compressed forms made. */
    const putAsset = async (body: Buffer, contentType: string, runtimeVersion = '1.0.0(1)') => {
      const key = updateAssetKey('default', 'production', runtimeVersion, hashOfBytes(body));
      await server.app.objectStore.put(key, body, { contentType });
      await server.app.assetEncodings.prepare(key);
      return urlOf(key);
    };

    describe('update assets', () => {
      it('are public, immutable, typed and validated by ETag', async () => {
        const body = randomBytes(4096);
        const url = await putAsset(body, 'image/png');
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
        const etag = response.headers.get('etag')!;
        expect(etag).toMatch(/^"[^"]+"$/);

        const revalidated = await fetch(url, { headers: { 'if-none-match': etag } });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers.get('etag')).toBe(etag);
        expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
        const weak = await fetch(url, { headers: { 'if-none-match': `"other", W/${etag}` } });
        expect(weak.status).toBe(304);
        await weak.arrayBuffer();
      });

      it('answer HEAD with the headers of GET and no body', async () => {
        const body = randomBytes(1500);
        const url = await putAsset(body, 'font/ttf');
        const get = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
        await get.arrayBuffer();
        const head = await rawRequest(url, new URL(url).pathname, 'HEAD', { 'accept-encoding': 'identity' });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expect(head.headers['content-length']).toBe(String(body.length));
        expect(head.headers['content-type']).toBe('font/ttf');
        expect(head.headers.etag).toBe(get.headers.get('etag'));
        expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      });

      it.each([
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['identity', undefined],
        ['', undefined],
        ['br;q=0, gzip;q=0', undefined],
      ])('negotiate accept-encoding "%s" → %s', async (acceptEncoding, expected) => {
        const text = Buffer.from(`export const answer = 42; // ${randomBytes(8).toString('hex')}\n`.repeat(400));
        const url = await putAsset(text, 'application/javascript');
        const response = await rawRequest(url, new URL(url).pathname, 'GET', { 'accept-encoding': acceptEncoding });
        expect(response.status).toBe(200);
        expect(response.headers['content-encoding']).toBe(expected);
        expect(response.headers.vary).toBe('accept-encoding, a-im, expo-current-update-id');
        const decoded =
          expected === 'br'
            ? zlib.brotliDecompressSync(response.body)
            : expected === 'gzip'
              ? zlib.gunzipSync(response.body)
              : response.body;
        expect(decoded.equals(text)).toBe(true);
        if (expected) expect(response.body.length).toBeLessThan(text.length);
        expect(response.headers['content-length']).toBe(String(response.body.length));
        // Each encoding is its own representation with its own validator.
        expect(response.headers.etag).toMatch(expected ? new RegExp(`-${expected}"$`) : /^"[^-"]+"$|^"[^"]+"$/);
      });

      it('serve an asset stored without its compressed forms whole at once, and compressed once they are made', async () => {
        const text = Buffer.from(`export const late = 1; // ${randomBytes(8).toString('hex')}\n`.repeat(400));
        const key = updateAssetKey('default', 'production', '1.0.0(1)', hashOfBytes(text));
        await server.app.objectStore.put(key, text, { contentType: 'application/javascript' });
        const url = urlOf(key);
        const first = await rawRequest(url, new URL(url).pathname, 'GET', { 'accept-encoding': 'br' });
        expect(first.status).toBe(200);
        expect(first.headers['content-encoding']).toBeUndefined();
        expect(first.headers.vary).toBe('accept-encoding, a-im, expo-current-update-id');
        expect(first.body.equals(text)).toBe(true);
        // The first request asked for the forms in the background; this joins that run.
        await server.app.assetEncodings.prepare(key);
        const later = await rawRequest(url, new URL(url).pathname, 'GET', { 'accept-encoding': 'br' });
        expect(later.headers['content-encoding']).toBe('br');
        expect(zlib.brotliDecompressSync(later.body).equals(text)).toBe(true);
        expect(later.headers.etag).not.toBe(first.headers.etag);
      });

      it('serve an asset above what is kept in memory by streaming it from the store, twice alike', async () => {
        const body = Buffer.concat([randomBytes(HOT_OBJECT_MAX_BYTES), Buffer.from('tail')]);
        const url = await putAsset(body, 'image/png');
        for (let i = 0; i < 2; i++) {
          const response = await rawRequest(url, new URL(url).pathname, 'GET', { 'accept-encoding': 'br' });
          expect(response.status).toBe(200);
          expect(response.headers['content-length']).toBe(String(body.length));
          expect(response.body.equals(body)).toBe(true);
        }
      });

      it('never compresses formats that are compressed already', async () => {
        const url = await putAsset(randomBytes(8000), 'image/png');
        const response = await rawRequest(url, new URL(url).pathname, 'GET', { 'accept-encoding': 'br, gzip' });
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.headers.vary).toBeUndefined();
      });

      it('a missing asset is 404 with the error body', async () => {
        const key = updateAssetKey('default', 'production', '1.0.0(1)', hashOfBytes(Buffer.from('nothing')));
        const response = await fetch(`${server.url}/objects/${key}`);
        expect(response.status).toBe(404);
        expect((await response.json()).error.code).toBe('NOT_FOUND');
      });

      it('a runtimeVersion with slashes and dots stays one key segment', async () => {
        const body = Buffer.from('tricky');
        const url = await putAsset(body, 'text/plain', '../../x/1.0');
        expect(url).toContain('/updates/production/..%252F..%252Fx%252F1.0/assets/');
        const response = await fetch(url);
        expect(await response.text()).toBe('tricky');
      });
    });

    describe('private objects', () => {
      const putPrivate = async () => {
        const key = `certificates/user-1/${randomBytes(6).toString('hex')}.pdf`;
        await server.app.objectStore.put(key, Buffer.from('%PDF-1.7 private'), { contentType: 'application/pdf' });
        return key;
      };

      it('are 403 without a signature', async () => {
        const key = await putPrivate();
        const response = await fetch(`${server.url}/objects/${key}`);
        expect(response.status).toBe(403);
        expect((await response.json()).error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'missing' } });
      });

      it('are 403 with a signature for another key, a changed expiry or a forged signature', async () => {
        const key = await putPrivate();
        const other = await putPrivate();
        const signed = new URL(await server.app.objectStore.signedGetUrl(other, 600));
        if (adapter === 's3') {
          // S3 URLs point at the bucket: the server's /objects never honours them.
          expect(signed.pathname).not.toContain('/objects/');
        }
        const ownQuery = new URL(await server.app.objectStore.signedGetUrl(key, 600)).searchParams;
        const cases = [
          `${server.url}/objects/${key}?${signed.searchParams}`,
          `${server.url}/objects/${key}?expires=${Number(ownQuery.get('expires')) + 1000}&signature=${ownQuery.get('signature')}`,
          `${server.url}/objects/${key}?expires=${ownQuery.get('expires')}&signature=${'A'.repeat(43)}`,
          `${server.url}/objects/${key}?expires=soon&signature=x`,
        ];
        for (const url of cases) {
          const response = await fetch(url);
          expect(response.status, url).toBe(403);
          await response.arrayBuffer();
        }
      });

      itLocal('are served through a valid signed URL, never cached', async () => {
        const key = await putPrivate();
        const response = await fetch(await server.app.objectStore.signedGetUrl(key, 600));
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('private, no-store');
        expect(await response.text()).toBe('%PDF-1.7 private');
      });
    });

    describe('traversal', () => {
      it.each(TRAVERSALS)('%s never reaches a file outside the store', async (rawPath) => {
        for (const method of ['GET', 'HEAD']) {
          const response = await rawRequest(server.url, rawPath, method);
          expect(response.status, `${method} ${rawPath}`).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(response.body.toString('utf8')).not.toContain(SENTINEL);
          expect(response.body.toString('utf8')).not.toContain('root:');
        }
      });

      itLocal('uploads to traversal paths write nothing outside the store', async () => {
        const before = fs.readdirSync(dataDir);
        for (const rawPath of TRAVERSALS) {
          const response = await rawRequest(
            server.url,
            `${rawPath}?expires=99999999999&signature=x`,
            'PUT',
            { 'content-type': 'text/plain' },
            Buffer.from(SENTINEL),
          );
          expect(response.status, rawPath).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        }
        expect(fs.readdirSync(dataDir)).toEqual(before);
        expect(fs.readFileSync(path.join(dataDir, 'secret.txt'), 'utf8')).toBe(SENTINEL);
        expect(fs.readdirSync(path.join(dataDir, 'objects'))).not.toContain('etc');
      });
    });
  });
}
