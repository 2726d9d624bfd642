import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidObjectKeyError } from '../../../src/storage/objects/object-key.js';
import { type ObjectStore, UploadRejected } from '../../../src/storage/objects/object-store.js';
import { startTestS3, type TestS3 } from '../../support/s3.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

export type AdapterName = 'local' | 's3';

export interface ContractContext {
  server: TestServer;
  store: ObjectStore;
  /** Shifts the server's clock (signed URLs are made and checked with it). */
  shiftClock(ms: number): void;
}

export const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('base64url');

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a server on the given adapter, with a clock the test can move. */
export function useAdapter(adapter: AdapterName): () => ContractContext {
  let context: ContractContext | undefined;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    let offset = 0;
    s3 = adapter === 's3' ? await startTestS3() : undefined;
    const server = await startTestServer('sqlite', {
      env: s3?.env ?? {},
      now: () => new Date(Date.now() + offset),
    });
    context = {
      server,
      store: server.app.objectStore,
      shiftClock: (ms) => {
        offset = ms;
      },
    };
  });
  afterAll(async () => {
    await context?.server.close();
    await s3?.close();
  });
  return () => {
    if (!context) throw new Error('the adapter did not start');
    return context;
  };
}

let counter = 0;
const freshKey = (prefix = 'contract') => `${prefix}/${process.pid}-${++counter}/object.bin`;

export const INVALID_KEYS = [
  '',
  '/etc/passwd',
  '../outside',
  'a/../../outside',
  'a/./b',
  '..',
  '.',
  'a//b',
  'a/',
  'a\\..\\b',
  'a\u0000b',
  'line\nbreak',
  'caf\u00e9',
  'x'.repeat(1025),
];

/**
 * The ObjectStore contract: every adapter must pass it unchanged. Adapter-specific behaviour (what
 * a fake S3 cannot check) is tested in each adapter's own file.
 */
export function describeObjectStoreContract(adapter: AdapterName): void {
  describe(`ObjectStore contract [${adapter}]`, () => {
    const ctx = useAdapter(adapter);

    it('stores bytes with their content type and reads them back', async () => {
      const { store } = ctx();
      const key = freshKey();
      const body = randomBytes(200_000);
      await store.put(key, body, { contentType: 'application/pdf' });
      const head = await store.head(key);
      expect(head).toMatchObject({ key, size: body.length, contentType: 'application/pdf' });
      expect(head?.etag).toMatch(/^"[^"]+"$/);
      const got = await store.get(key);
      expect(got).toMatchObject({ key, size: body.length, contentType: 'application/pdf', etag: head?.etag });
      expect(sha256(await readAll(got!.body))).toBe(sha256(body));
    });

    it('reads an object whole into one buffer, with what head says of it', async () => {
      const { store } = ctx();
      const key = freshKey();
      // Larger than one read of the local store and than one chunk of an HTTP body.
      const body = randomBytes(1_300_000);
      await store.put(key, body, { contentType: 'application/javascript' });
      const head = await store.head(key);
      const read = await store.read(key);
      expect(read).toMatchObject({ key, size: body.length, contentType: 'application/javascript', etag: head?.etag });
      expect(read!.bytes.equals(body)).toBe(true);
      // A small object whose key names its type, which the local store writes another way, too.
      const small = freshKey().replace(/\.bin$/, '.pdf');
      await store.put(small, Buffer.from('%PDF-1.4 small'), { contentType: 'application/pdf' });
      expect((await store.read(small))?.bytes.toString()).toBe('%PDF-1.4 small');
    });

    it('answers undefined for a key that does not exist', async () => {
      const { store } = ctx();
      expect(await store.head(freshKey())).toBeUndefined();
      expect(await store.get(freshKey())).toBeUndefined();
      expect(await store.read(freshKey())).toBeUndefined();
    });

    it('writing identical content again changes nothing', async () => {
      const { store } = ctx();
      const key = freshKey();
      const body = Buffer.from('same bytes');
      await store.put(key, body, { contentType: 'text/plain' });
      const before = await store.head(key);
      await store.put(key, Buffer.from('same bytes'), { contentType: 'text/plain' });
      expect(await store.head(key)).toEqual(before);
    });

    it('replaces a private object written again with other content', async () => {
      const { store } = ctx();
      const key = freshKey();
      await store.put(key, Buffer.from('first'), { contentType: 'text/plain' });
      const first = await store.head(key);
      await store.put(key, Buffer.from('second, longer'), { contentType: 'text/plain' });
      const second = await store.get(key);
      expect(second?.etag).not.toBe(first?.etag);
      expect((await readAll(second!.body)).toString()).toBe('second, longer');
    });

    it('a small object whose key names its type (.pdf) reads back with it', async () => {
      const { store } = ctx();
      const key = freshKey().replace(/\.bin$/, '.pdf');
      const body = Buffer.from('%PDF-1.4 small document');
      await store.put(key, body, { contentType: 'application/pdf' });
      const got = await store.get(key);
      expect(got).toMatchObject({ key, size: body.length, contentType: 'application/pdf' });
      expect(got?.etag).toMatch(/^"[^"]+"$/);
      expect((await readAll(got!.body)).equals(body)).toBe(true);
    });

    it('replacing an object with other bytes of the same size changes type and validator', async () => {
      const { store } = ctx();
      const key = freshKey().replace(/\.bin$/, '.pdf');
      await store.put(key, Buffer.from('first-'), { contentType: 'application/octet-stream' });
      const first = await store.head(key);
      await store.put(key, Buffer.from('second'), { contentType: 'application/pdf' });
      const second = await store.get(key);
      expect(second).toMatchObject({ size: 6, contentType: 'application/pdf' });
      expect(second?.etag).not.toBe(first?.etag);
      expect((await readAll(second!.body)).toString()).toBe('second');
      await store.put(key, Buffer.from('third-'), { contentType: 'application/pdf' });
      const third = await store.get(key);
      expect(third?.etag).not.toBe(second?.etag);
      expect((await readAll(third!.body)).toString()).toBe('third-');
    });

    it('deletes, and deleting a missing key is not an error', async () => {
      const { store } = ctx();
      const key = freshKey();
      await store.put(key, Buffer.from('x'), { contentType: 'text/plain' });
      await store.delete(key);
      expect(await store.head(key)).toBeUndefined();
      await expect(store.delete(key)).resolves.toBeUndefined();
    });

    it.each(INVALID_KEYS.map((key) => [JSON.stringify(key).slice(0, 40), key]))(
      'rejects the unsafe key %s in every method',
      async (_label, key) => {
        const { store } = ctx();
        const calls = [
          () => store.put(key, Buffer.from('x'), { contentType: 'text/plain' }),
          () => store.head(key),
          () => store.get(key),
          () => store.read(key),
          () => store.delete(key),
          () => store.signedGetUrl(key, 60),
          () => store.signedPutUrl(key, { contentType: 'text/plain', ttlSeconds: 60 }),
        ];
        for (const call of calls) await expect(call()).rejects.toBeInstanceOf(InvalidObjectKeyError);
      },
    );

    it('keeps keys with parentheses, spaces and percent signs apart and intact', async () => {
      const { store } = ctx();
      const base = freshKey('odd');
      const keys = [`${base}/1.0.0(57)`, `${base}/a b`, `${base}/100%25`, `${base}/100%`, `${base}/q?x=1#f`];
      for (const [i, key] of keys.entries()) await store.put(key, Buffer.from(`v${i}`), { contentType: 'text/plain' });
      for (const [i, key] of keys.entries()) {
        const got = await store.get(key);
        expect((await readAll(got!.body)).toString()).toBe(`v${i}`);
        const url = await store.signedGetUrl(key, 60);
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(`v${i}`);
      }
    });

    it('a signed GET URL downloads the object until it expires', async () => {
      const { store } = ctx();
      const key = freshKey('certificates');
      const body = randomBytes(5000);
      await store.put(key, body, { contentType: 'application/pdf' });
      const url = await store.signedGetUrl(key, 600);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(body));
    });

    it('an expired signed GET URL is refused with 403', async () => {
      const { store, shiftClock } = ctx();
      const key = freshKey('certificates');
      await store.put(key, Buffer.from('pdf'), { contentType: 'application/pdf' });
      shiftClock(-2 * 3600_000);
      const url = await store.signedGetUrl(key, 60);
      shiftClock(0);
      const response = await fetch(url);
      expect(response.status).toBe(403);
      await response.arrayBuffer();
    });

    it('a signed PUT URL uploads with the headers it hands out', async () => {
      const { store } = ctx();
      const body = randomBytes(30_000);
      const key = freshKey('uploads');
      const signed = await store.signedPutUrl(key, {
        contentType: 'image/png',
        ttlSeconds: 600,
        sha256Base64Url: sha256(body),
        size: body.length,
      });
      expect(signed.headers['content-type']).toBe('image/png');
      const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body });
      expect(response.ok).toBe(true);
      await response.arrayBuffer();
      expect(await store.head(key)).toMatchObject({ size: body.length, contentType: 'image/png' });
      expect(sha256(await readAll((await store.get(key))!.body))).toBe(sha256(body));
    });

    it('putStream stores a stream, says whether it created the object, and checks size and hash', async () => {
      const { store } = ctx();
      const body = randomBytes(100_000);
      const key = freshKey('streamed');
      const options = {
        contentType: 'application/javascript',
        sha256: sha256(body),
        size: body.length,
        maxBytes: 1 << 20,
      };
      expect(await store.putStream(key, Readable.from([body.subarray(0, 5000), body.subarray(5000)]), options)).toEqual(
        {
          created: true,
        },
      );
      expect(await store.putStream(key, Readable.from([body]), options)).toEqual({ created: false });
      expect(sha256(await readAll((await store.get(key))!.body))).toBe(sha256(body));

      const other = freshKey('streamed');
      const rejected = (error: unknown, reason: string) => error instanceof UploadRejected && error.reason === reason;
      await expect(
        store.putStream(other, Readable.from([body]), { ...options, sha256: sha256(Buffer.from('else')) }),
      ).rejects.toSatisfy((error) => rejected(error, 'hash-mismatch'));
      await expect(store.putStream(other, Readable.from([body]), { ...options, size: 10 })).rejects.toSatisfy((error) =>
        rejected(error, 'size-mismatch'),
      );
      expect(await store.head(other)).toBeUndefined();
    });

    it('putStream stops reading at maxBytes and stores nothing', async () => {
      const { store } = ctx();
      const key = freshKey('streamed');
      let pulled = 0;
      // An endless source: only a reader that stops at the limit ever finishes.
      const endless = new Readable({
        read() {
          pulled += 16_384;
          this.push(Buffer.alloc(16_384, 1));
        },
      });
      await expect(
        store.putStream(key, endless, { contentType: 'application/octet-stream', maxBytes: 25 }),
      ).rejects.toSatisfy((error) => error instanceof UploadRejected && error.reason === 'too-large');
      expect(pulled).toBeLessThan(1 << 20);
      expect(await store.head(key)).toBeUndefined();
    });

    it('an expired signed PUT URL is refused with 403 and stores nothing', async () => {
      const { store, shiftClock } = ctx();
      const key = freshKey('uploads');
      shiftClock(-2 * 3600_000);
      const signed = await store.signedPutUrl(key, { contentType: 'text/plain', ttlSeconds: 60 });
      shiftClock(0);
      const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: 'late' });
      expect(response.status).toBe(403);
      await response.arrayBuffer();
      expect(await store.head(key)).toBeUndefined();
    });
  });
}
