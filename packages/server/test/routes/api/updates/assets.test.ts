import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { hashOfBytes } from '../../../support/publisher.js';
import { startTestS3, type TestS3 } from '../../../support/s3.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

interface Status {
  hash: string;
  status: 'present' | 'missing';
  url: string;
  uploadUrl?: string;
  uploadHeaders?: Record<string, string>;
}

const candidate = (body: Buffer, contentType = 'application/octet-stream') => ({
  hash: hashOfBytes(body),
  contentType,
  size: body.length,
});

describeEachEngine('POST /api/updates/assets', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { env: { ASSET_UPLOAD_LIMIT_BYTES: '65536' } });
  });
  afterAll(async () => server?.close());

  const check = (body: unknown, init: RequestInit = {}) =>
    server.authed('/api/updates/assets', { method: 'POST', body: JSON.stringify(body), ...init });
  const statuses = async (body: unknown): Promise<Status[]> => {
    const response = await check(body);
    expect(response.status).toBe(200);
    return (await response.json()).assets;
  };
  const storedFiles = () => {
    const root = path.join(server.dataDir, 'objects', 'data');
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).length : 0;
  };

  it('needs the release token', async () => {
    const body = JSON.stringify({
      channel: 'production',
      runtimeVersion: '1.0.0',
      assets: [candidate(Buffer.from('a'))],
    });
    const none = await fetch(`${server.url}/api/updates/assets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(`${server.url}/api/updates/assets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-the-token-at-all' },
      body,
    });
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();
  });

  it.each([
    ['an unknown channel', { channel: 'staging' }],
    ['a hash that is not base64url SHA-256', { assets: [{ hash: 'abc', contentType: 'image/png', size: 1 }] }],
    ['a padded hash', { assets: [{ hash: `${'A'.repeat(42)}=`, contentType: 'image/png', size: 1 }] }],
    ['a content type that is not a MIME type', { assets: [{ ...candidate(Buffer.from('x')), contentType: 'png' }] }],
    ['a negative size', { assets: [{ ...candidate(Buffer.from('x')), size: -1 }] }],
    ['no assets', { assets: [] }],
    ['an unknown field', { extra: true }],
    ['a runtimeVersion with a newline', { runtimeVersion: '1.0\n' }],
  ])('%s → 400', async (_name, change) => {
    const response = await check({
      channel: 'production',
      runtimeVersion: '1.0.0(1)',
      assets: [candidate(Buffer.from('x'))],
      ...change,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('an asset over the upload limit → 413 naming it', async () => {
    const hash = hashOfBytes(Buffer.from('big'));
    const response = await check({
      channel: 'production',
      runtimeVersion: '1.0.0(1)',
      assets: [{ hash, contentType: 'application/javascript', size: 65537 }],
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { hash, limit: 65536 } });
  });

  it('lists missing assets with upload URLs, then present once uploaded; URLs are the manifest URLs', async () => {
    const body = randomBytes(5000);
    const track = { channel: 'production', runtimeVersion: '2.0.0(20)' };
    const [missing] = await statuses({ ...track, assets: [candidate(body, 'image/png')] });
    expect(missing).toMatchObject({ hash: hashOfBytes(body), status: 'missing' });
    expect(missing!.url).toBe(`${server.url}/objects/updates/production/2.0.0(20)/assets/${hashOfBytes(body)}`);
    expect(missing!.uploadHeaders).toEqual({ 'content-type': 'image/png' });

    const put = await fetch(missing!.uploadUrl!, { method: 'PUT', headers: missing!.uploadHeaders, body });
    expect(put.status).toBe(201);
    const served = await fetch(missing!.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);

    const [present] = await statuses({ ...track, assets: [candidate(body, 'image/png')] });
    expect(present).toEqual({ hash: hashOfBytes(body), status: 'present', url: missing!.url });
  });

  it('lists a file named twice once', async () => {
    const body = randomBytes(100);
    const list = await statuses({
      channel: 'development',
      runtimeVersion: '2.0.0-pre',
      assets: [candidate(body), candidate(body)],
    });
    expect(list).toHaveLength(1);
  });

  it('an identical re-upload changes nothing', async () => {
    const body = randomBytes(3000);
    const [status] = await statuses({ channel: 'production', runtimeVersion: '2.1.0(21)', assets: [candidate(body)] });
    const upload = () => fetch(status!.uploadUrl!, { method: 'PUT', headers: status!.uploadHeaders, body });
    expect((await upload()).status).toBe(201);
    const file = path.join(
      server.dataDir,
      'objects',
      'data',
      'updates',
      'production',
      '2.1.0(21)',
      'assets',
      status!.hash,
    );
    const before = fs.statSync(file);
    const again = await upload();
    expect(again.status).toBe(200);
    const after = fs.statSync(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
  });

  it('an upload whose bytes do not match the hash is refused and stores nothing', async () => {
    const body = randomBytes(3000);
    const [status] = await statuses({ channel: 'production', runtimeVersion: '2.2.0(22)', assets: [candidate(body)] });
    const files = storedFiles();
    const tampered = Buffer.from(body);
    tampered[0] = (tampered[0]! + 1) % 256;
    const response = await fetch(status!.uploadUrl!, { method: 'PUT', headers: status!.uploadHeaders, body: tampered });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('HASH_MISMATCH');
    expect(storedFiles()).toBe(files);
    expect((await fetch(status!.url)).status).toBe(404);
    expect(fs.readdirSync(path.join(server.dataDir, 'objects', 'tmp'))).toEqual([]);
  });

  it('an upload of another length than announced is refused', async () => {
    const body = randomBytes(3000);
    const [status] = await statuses({ channel: 'production', runtimeVersion: '2.3.0(23)', assets: [candidate(body)] });
    const response = await fetch(status!.uploadUrl!, {
      method: 'PUT',
      headers: status!.uploadHeaders,
      body: Buffer.concat([body, Buffer.from('x')]),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('SIZE_MISMATCH');
  });

  it('an upload with another content type, an edited URL, or no signature is 403', async () => {
    const body = randomBytes(1000);
    const [status] = await statuses({
      channel: 'production',
      runtimeVersion: '2.4.0(24)',
      assets: [candidate(body, 'image/png')],
    });
    const url = new URL(status!.uploadUrl!);
    const otherType = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body });
    expect(otherType.status).toBe(403);
    await otherType.arrayBuffer();
    const bigger = new URL(url);
    bigger.searchParams.set('size', '2000');
    const edited = await fetch(bigger, { method: 'PUT', headers: status!.uploadHeaders, body });
    expect(edited.status).toBe(403);
    await edited.arrayBuffer();
    const unsigned = await fetch(`${url.origin}${url.pathname}`, {
      method: 'PUT',
      headers: status!.uploadHeaders,
      body,
    });
    expect(unsigned.status).toBe(403);
    await unsigned.arrayBuffer();
    expect((await fetch(status!.url)).status).toBe(404);
  });

  it('a PUT to an update-asset key whose hash is not the signed hash is 403', async () => {
    const body = randomBytes(1000);
    const objects = server.app.objectStore;
    // A signed URL for an update key without the content hash (never handed out, but must not work).
    const signed = await objects.signedPutUrl(`updates/production/9/assets/${hashOfBytes(Buffer.from('other'))}`, {
      contentType: 'application/octet-stream',
      ttlSeconds: 60,
    });
    const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body });
    expect(response.status).toBe(403);
    await response.arrayBuffer();
  });

  it('an upload to a key under an existing object is 400, not 500', async () => {
    const objects = server.app.objectStore;
    await objects.put('collide/a', Buffer.from('file'), { contentType: 'text/plain' });
    const signed = await objects.signedPutUrl('collide/a/b', { contentType: 'text/plain', ttlSeconds: 60 });
    const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: 'x' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('INVALID_OBJECT_KEY');
    expect(fs.readdirSync(path.join(server.dataDir, 'objects', 'tmp'))).toEqual([]);
  });

  it('an upload over the limit is 413 and stores nothing', async () => {
    const objects = server.app.objectStore;
    const body = randomBytes(70_000);
    const signed = await objects.signedPutUrl('uploads/too-big.bin', {
      contentType: 'application/octet-stream',
      ttlSeconds: 60,
    });
    const response = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body });
    expect(response.status).toBe(413);
    await response.arrayBuffer();
    expect(await objects.head('uploads/too-big.bin')).toBeUndefined();
  });
});

describe('POST /api/updates/assets [s3]', () => {
  let server: TestServer;
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer('sqlite', { env: s3.env });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('hands out presigned S3 PUTs that carry the checksum, and manifest URLs on this server', async () => {
    const body = randomBytes(2000);
    const response = await server.authed('/api/updates/assets', {
      method: 'POST',
      body: JSON.stringify({
        channel: 'production',
        runtimeVersion: '5.0.0(5)',
        assets: [candidate(body, 'image/png')],
      }),
    });
    const [status] = (await response.json()).assets as Status[];
    expect(status!.url).toBe(`${server.url}/objects/updates/production/5.0.0(5)/assets/${hashOfBytes(body)}`);
    expect(status!.uploadUrl!.startsWith(`${s3.endpoint}/${s3.bucket}/ferry/updates/production/`)).toBe(true);
    expect(status!.uploadHeaders).toEqual({
      'content-type': 'image/png',
      'x-amz-checksum-sha256': createStandardBase64(body),
    });
    const put = await fetch(status!.uploadUrl!, { method: 'PUT', headers: status!.uploadHeaders, body });
    expect(put.ok).toBe(true);
    await put.arrayBuffer();
    const served = await fetch(status!.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);
  });
});

function createStandardBase64(body: Buffer): string {
  return Buffer.from(hashOfBytes(body), 'base64url').toString('base64');
}
