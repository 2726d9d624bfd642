import { describe, expect, it } from 'vitest';
import { manifestAnswer, SHARED_HEADERS_MAX } from './manifest-answer.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import { type SignedManifest, signedManifestOf } from './manifest-response.js';

const signed = (id: string, body: string, namespace: 'expo' | 'ota' = 'expo'): SignedManifest =>
  signedManifestOf(id, { namespace, certificate: 'test', body, signature: `sig="${id}"`, assetBaseUrl: null });
const update = (manifest: SignedManifest): ManifestOutcome => ({ kind: 'update', signed: manifest });
const boundaryOf = (contentType: string | undefined) => /boundary=(.+)$/.exec(contentType ?? '')?.[1];

describe('manifestAnswer headers', () => {
  // Two tracks' manifests of the same length: with 1,000 tracks, the headers written per request
  // are then a few shared objects instead of one per track (bench:manifest (d)).
  it('multipart answers with the same headers share one object; each still describes its own body', () => {
    const one = manifestAnswer(update(signed('one', '{"id":"1"}')), 'multipart', 'expo')!;
    const two = manifestAnswer(update(signed('two', '{"id":"2"}')), 'multipart', 'expo')!;
    expect(two.headers).toBe(one.headers);
    expect(two.body).not.toEqual(one.body);
    const longer = manifestAnswer(update(signed('three', '{"id":"30"}')), 'multipart', 'expo')!;
    expect(longer.headers).not.toBe(one.headers);
    expect(longer.headers['content-length']).toBe(String(longer.body!.length));
    expect(longer.headers['content-type']).toBe(one.headers['content-type']);
    // The other namespace's headers have other names: never shared with this one's.
    const ota = manifestAnswer(update(signed('ota', '{"id":"1"}', 'ota')), 'multipart', 'ota')!;
    expect(ota.headers).not.toBe(one.headers);
    expect(ota.headers['ota-protocol-version']).toBe('1');
  });

  it(`keeps at most ${SHARED_HEADERS_MAX} headers for sharing; past it, answers keep their own`, () => {
    // Bodies of lengths no other test uses, each length one more set of headers to share; ids of
    // one length, as the id is in the signature and so in the body.
    const headersOf = (id: string, length: number) =>
      manifestAnswer(update(signed(id, JSON.stringify({ pad: 'x'.repeat(length) }))), 'multipart', 'expo')!.headers;
    const first = headersOf('first-a', 50_000);
    for (let n = 1; n <= SHARED_HEADERS_MAX; n++) headersOf('fill-xx', 50_000 + n);
    expect(headersOf('first-b', 50_000)).toBe(first);
    const past = 50_000 + SHARED_HEADERS_MAX + 1;
    expect(headersOf('past-aa', past)).not.toBe(headersOf('past-bb', past));
  });

  it('JSON answers keep their own headers: the signature is one of them', () => {
    const one = manifestAnswer(update(signed('one', '{"id":"1"}')), 'json', 'expo')!;
    const two = manifestAnswer(update(signed('two', '{"id":"2"}')), 'json', 'expo')!;
    expect(one.headers['expo-signature']).toBe('sig="one"');
    expect(two.headers['expo-signature']).toBe('sig="two"');
  });

  it('a manifest that contains the shared boundary gets a boundary of its own (RFC 2046 §5.1.1)', () => {
    const shared = boundaryOf(
      manifestAnswer(update(signed('one', '{}')), 'multipart', 'expo')!.headers['content-type'],
    );
    expect(shared).toMatch(/^ferry-[0-9a-f]{24}$/);
    const tricky = signed('tricky', JSON.stringify({ note: `--${shared}--` }));
    const own = boundaryOf(tricky.multipartContentType)!;
    expect(own).not.toBe(shared);
    expect(tricky.multipart.toString().split(`--${own}`)).toHaveLength(3);
  });
});
