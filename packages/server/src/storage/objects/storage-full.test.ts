import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isStorageFullAnswer } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, S3ObjectStore } from './s3-object-store.js';
import { asStorageFull, StorageFull, storageFullCause } from './storage-full.js';

const errno = (code: string) => Object.assign(new Error(`${code}: failed, write`), { code });
const s3Error = (name: string, httpStatusCode: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });

describe('storageFullCause: which failed writes mean "storage full"', () => {
  it.each([
    ['ENOSPC (disk full)', errno('ENOSPC'), 'ENOSPC'],
    ['EDQUOT (quota)', errno('EDQUOT'), 'EDQUOT'],
    ['EACCES', errno('EACCES'), undefined],
    ['EIO', errno('EIO'), undefined],
    ['MinIO drives at their floor', s3Error('XMinioStorageFull', 507), 'XMinioStorageFull'],
    ['MinIO bucket quota', s3Error('XMinioAdminBucketQuotaExceeded', 400), 'XMinioAdminBucketQuotaExceeded'],
    ['Ceph RGW quota', s3Error('QuotaExceeded', 403), 'QuotaExceeded'],
    ['InsufficientStorage', s3Error('InsufficientStorage', 507), 'InsufficientStorage'],
    ['any 507 answer', s3Error('UnknownError', 507), 'HTTP 507'],
    ['S3 access denied', s3Error('AccessDenied', 403), undefined],
    ['S3 unavailable', s3Error('ServiceUnavailable', 503), undefined],
    ['a code name without an S3 answer', Object.assign(new Error('x'), { name: 'QuotaExceeded' }), undefined],
    ['the words alone', new Error('ENOSPC: no space left on device'), undefined],
    ['not an error', 'ENOSPC', undefined],
    ['nothing', undefined, undefined],
  ])('%s', (_name, error, cause) => {
    expect(storageFullCause(error)).toBe(cause);
    const mapped = asStorageFull(error, 'local');
    if (cause === undefined) expect(mapped).toBe(error);
    else expect(mapped).toMatchObject({ kind: 'storage-full', code: 'STORAGE_FULL', reason: cause });
  });

  it.each([
    [507, undefined, true],
    [400, 'STORAGE_FULL', true],
    [507, 'XMinioStorageFull', true],
    [403, 'QuotaExceeded', true],
    [500, 'InternalError', false],
    [503, undefined, false],
    [undefined, undefined, false],
  ])('isStorageFullAnswer(%s, %s) → %s', (status, code, full) => {
    expect(isStorageFullAnswer(status, code)).toBe(full);
  });

  it('the answer says what happened, never the path or the errno text', () => {
    const error = asStorageFull(errno('ENOSPC'), 'local') as StorageFull;
    expect(error.toBody()).toEqual({
      error: { code: 'STORAGE_FULL', message: expect.stringMatching(/full: nothing was stored/), details: {} },
    });
  });
});

/** An S3-compatible endpoint that is out of room: HEAD finds nothing, PUT is refused with the given answer. */
describe('S3ObjectStore on a full S3-compatible store', () => {
  let answer: { status: number; code: string } = { status: 507, code: 'XMinioStorageFull' };
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.method === 'HEAD') {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(answer.status, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${answer.code}</Code><Message>No room.</Message><Resource>/b/k</Resource><RequestId>1</RequestId></Error>`,
      );
  });
  let store: S3ObjectStore;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const location = {
      bucket: 'ferry-assets',
      prefix: '',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-secret-secret' },
    };
    // One attempt: the SDK would retry a 5xx answer, which says nothing more here.
    store = new S3ObjectStore(location, { client: createS3Client(location, { maxAttempts: 1 }) });
  });
  afterAll(async () => {
    store?.client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    [507, 'XMinioStorageFull'],
    [400, 'XMinioAdminBucketQuotaExceeded'],
    [403, 'QuotaExceeded'],
  ])('a PUT answered %i %s throws StorageFull', async (status, code) => {
    answer = { status, code };
    const put = store.put('certificates/ab/abc.pdf', Buffer.from('%PDF-1.7'), { contentType: 'application/pdf' });
    await expect(put).rejects.toBeInstanceOf(StorageFull);
    await expect(put).rejects.toMatchObject({ store: 's3', reason: code });
  });

  it('other refusals stay what they are', async () => {
    answer = { status: 403, code: 'AccessDenied' };
    const put = store.put('certificates/ab/abc.pdf', Buffer.from('%PDF-1.7'), { contentType: 'application/pdf' });
    await expect(put).rejects.not.toBeInstanceOf(StorageFull);
    await expect(put).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});
