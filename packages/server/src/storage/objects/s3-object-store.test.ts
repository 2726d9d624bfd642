import { describe, expect, it } from 'vitest';
import type { S3Location } from '../../config/object-store-config.js';
import { updateAssetKey } from './object-key.js';
import { base64UrlToBase64, S3ObjectStore } from './s3-object-store.js';

// s3rver does not check SigV4, so the shape of what S3 will check is asserted here.
const HASH = 'JCcs2u_4LMX6zazNmCpvBbYMRQRwS7-UwZpjiGWYgLs';
const location = (over: Partial<S3Location> = {}): S3Location => ({
  bucket: 'ferry-assets',
  prefix: 'prod',
  endpoint: 'https://s3.example.test',
  forcePathStyle: true,
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  ...over,
});
const SIGNING_DATE = new Date('2026-03-04T05:06:07Z');
const store = (over: Partial<S3Location> = {}) => new S3ObjectStore(location(over), { now: () => SIGNING_DATE });

describe('S3ObjectStore presigned URLs', () => {
  const key = updateAssetKey('default', 'production', '1.2.0(57)', HASH);

  it('a PUT signs content type, length and the SHA-256 checksum as headers', async () => {
    const signed = await store().signedPutUrl(key, {
      contentType: 'image/png',
      ttlSeconds: 3600,
      sha256Base64Url: HASH,
      size: 1234,
    });
    const url = new URL(signed.url);
    expect(url.origin).toBe('https://s3.example.test');
    expect(decodeURIComponent(url.pathname)).toBe(`/ferry-assets/prod/${key}`);
    const q = url.searchParams;
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Credential')).toBe('AKIDEXAMPLE/20260304/eu-west-1/s3/aws4_request');
    expect(q.get('X-Amz-Date')).toBe('20260304T050607Z');
    expect(q.get('X-Amz-Expires')).toBe('3600');
    expect(q.get('X-Amz-SignedHeaders')?.split(';')).toEqual([
      'content-length',
      'content-type',
      'host',
      'x-amz-checksum-sha256',
    ]);
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // The checksum stays a header the uploader must send; S3 rejects bytes that do not match it.
    expect(q.has('x-amz-checksum-sha256')).toBe(false);
    expect(signed.headers).toEqual({ 'content-type': 'image/png', 'x-amz-checksum-sha256': base64UrlToBase64(HASH) });
    expect(Buffer.from(signed.headers['x-amz-checksum-sha256']!, 'base64').toString('base64url')).toBe(HASH);
  });

  it('the signature depends on every signed input', async () => {
    const sign = (over: Partial<S3Location>, contentType = 'image/png', size = 1234) =>
      store(over)
        .signedPutUrl(key, { contentType, ttlSeconds: 3600, sha256Base64Url: HASH, size })
        .then((s) => new URL(s.url).searchParams.get('X-Amz-Signature'));
    const base = await sign({});
    expect(await sign({})).toBe(base);
    expect(await sign({ credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'other' } })).not.toBe(base);
    expect(await sign({}, 'text/html')).not.toBe(base);
    expect(await sign({}, 'image/png', 1235)).not.toBe(base);
    expect(await sign({ region: 'us-east-1' })).not.toBe(base);
  });

  it('a GET is presigned for its lifetime, clamped to the S3 maximum of a week', async () => {
    const short = new URL(await store().signedGetUrl('certificates/u/1.pdf', 600));
    expect(short.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(short.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    const long = new URL(await store().signedGetUrl('certificates/u/1.pdf', 30 * 86_400));
    expect(long.searchParams.get('X-Amz-Expires')).toBe(String(7 * 86_400));
  });

  it('virtual-hosted style puts the bucket in the host name', async () => {
    const url = new URL(await store({ endpoint: undefined, forcePathStyle: false }).signedGetUrl('a/b', 60));
    expect(url.host).toBe('ferry-assets.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/prod/a/b');
  });

  it('an empty prefix stores at the bucket root', () => {
    expect(store({ prefix: '' }).bucketKey('a/b')).toBe('a/b');
    expect(store().bucketKey('a/b')).toBe('prod/a/b');
  });
});
