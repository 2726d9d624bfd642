import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { WAKE_SLICE } from '../../single-flight.js';
import { TurnPacer } from '../../turn-pacer.js';
import { AssetDelivery, etagFor, etagMatches, negotiateEncoding, slicesOf } from './asset-delivery.js';
import { type AssetEncodings, isCompressible } from './asset-encodings.js';
import type { ObjectStore } from './object-store.js';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.8', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['deflate', 'identity'],
    ['identity;q=1, br;q=0.1', 'identity'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('etagMatches', () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['*', '"a"', true],
    ['"b"', '"a"', false],
    [undefined, '"a"', false],
  ])('if-none-match %j vs %j → %s', (header, etag, expected) => {
    expect(etagMatches(header, etag)).toBe(expected);
  });

  it('gives each encoding its own ETag', () => {
    expect(etagFor('"abc"', 'br')).toBe('"abc-br"');
    expect(etagFor('"abc"', 'gzip')).toBe('"abc-gzip"');
    expect(etagFor('"abc"', 'identity')).toBe('"abc"');
  });
});

describe('isCompressible', () => {
  it.each([
    ['application/javascript', 5000, true],
    ['application/octet-stream', 5000, true],
    ['image/svg+xml', 5000, true],
    ['text/plain', 100, false],
    ['image/png', 5000, false],
    ['font/woff2', 5000, false],
    ['application/zip', 5000, false],
    ['application/javascript', 100 * 1024 * 1024, false],
  ])('%s of %d bytes → %s', (contentType, size, expected) => {
    expect(isCompressible({ contentType, size })).toBe(expected);
  });
});

describe('slicesOf', () => {
  it('gives the buffer whole, as 64 KiB views, counting each as it is handed on', async () => {
    const bytes = Buffer.from(Array.from({ length: 150 * 1024 }, (_, i) => i % 251));
    let counted = 0;
    const slices: Buffer[] = [];
    for await (const slice of slicesOf(
      bytes,
      (n) => (counted += n),
      () => Promise.resolve(),
    ))
      slices.push(slice);
    expect(slices.map((slice) => slice.length)).toEqual([65536, 65536, 22528]);
    expect(Buffer.concat(slices).equals(bytes)).toBe(true);
    expect(counted).toBe(bytes.length);
  });

  it('hands on at most one pacer slice per turn across every download under way, however many there are', async () => {
    const pacer = new TurnPacer();
    const downloads = 200;
    const bytes = Buffer.alloc(4 * 64 * 1024);
    let handedOn = 0;
    const perTurn: number[] = [];
    const all = Promise.all(
      Array.from({ length: downloads }, async () => {
        for await (const _ of slicesOf(
          bytes,
          () => handedOn++,
          () => pacer.turn(),
        ));
      }),
    );
    let done = false;
    void all.then(() => (done = true));
    // Each download's first slice goes at once; every later one waits for the shared pacer.
    while (!done) {
      const before = handedOn;
      await new Promise((resolve) => setImmediate(resolve));
      perTurn.push(handedOn - before);
    }
    expect(handedOn).toBe(downloads * 4);
    expect(Math.max(...perTurn.slice(1))).toBeLessThanOrEqual(WAKE_SLICE);
  });
});

describe('AssetDelivery', () => {
  it('sends every download from memory through one pacer: after the first views, a turn hands on at most a pacer slice', async () => {
    const bytes = Buffer.alloc(4 * 64 * 1024, 7);
    // Not compressible, so only the identity form is asked for and no encoding is involved.
    const object = { key: 'updates/a/asset', size: bytes.length, contentType: 'image/png', etag: '"e"' };
    const store = { head: async () => object, read: async () => ({ ...object, bytes }) } as unknown as ObjectStore;
    const delivery = new AssetDelivery(store, {} as AssetEncodings);
    const request = { headers: {}, method: 'GET' } as FastifyRequest;
    const replyStub = () => {
      const reply = { header: () => reply, code: () => reply, send: (body: unknown) => body };
      return reply as unknown as FastifyReply;
    };
    const downloads = 200;
    const bodies = (await Promise.all(
      Array.from({ length: downloads }, () => delivery.serve(object.key, request, replyStub())),
    )) as unknown as Readable[];

    let received = 0;
    const all = Promise.all(
      bodies.map(async (body) => {
        for await (const chunk of body) received += (chunk as Buffer).length;
      }),
    );
    let done = false;
    void all.then(() => (done = true));
    const viewsPerTurn: number[] = [];
    while (!done) {
      const before = received;
      await new Promise((resolve) => setImmediate(resolve));
      viewsPerTurn.push((received - before) / (64 * 1024));
    }
    expect(received).toBe(downloads * bytes.length);
    // The first turn carries every download's first view; each later view waits for the shared pacer.
    expect(Math.max(...viewsPerTurn.slice(1))).toBeLessThanOrEqual(WAKE_SLICE);
  });
});
