import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URL_SECRET = `url-secret-${randomBytes(16).toString('hex')}`;

// Signed URLs are bearer credentials and the signing key is the root of trust: neither may reach
// a log line or an error message, even at the most verbose level.
describe('secrets of objects and signing never reach logs or errors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { logLevel: 'trace', env: { OBJECT_URL_SIGNING_SECRET: URL_SECRET } });
  });
  afterAll(async () => server?.close());

  it('holds for uploads, signed downloads, failures and manifests', async () => {
    const seen: string[] = [];
    await publishRelease(server, {
      channel: 'production',
      platform: 'ios',
      runtimeVersion: '1.0.0(1)',
      launch: fileOf('bundle', 'application/javascript', '.bundle'),
      assets: [fileOf(randomBytes(2000), 'image/png', '.png')],
    });
    await server.app.objectStore.put('certificates/u/1.pdf', Buffer.from('%PDF'), { contentType: 'application/pdf' });
    const signed = new URL(await server.app.objectStore.signedGetUrl('certificates/u/1.pdf', 600));
    seen.push(signed.searchParams.get('signature')!);
    expect((await fetch(signed)).status).toBe(200);
    const expiredish = `${signed.origin}${signed.pathname}?expires=1&signature=${signed.searchParams.get('signature')}`;
    const refused = await fetch(expiredish);
    expect(refused.status).toBe(403);
    const body = await refused.text();
    const upload = await server.app.objectStore.signedPutUrl('uploads/x.bin', {
      contentType: 'text/plain',
      ttlSeconds: 60,
    });
    seen.push(new URL(upload.url).searchParams.get('signature')!);
    const rejected = await fetch(upload.url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: 'x' });
    expect(rejected.status).toBe(403);
    const rejectedBody = await rejected.text();
    await fetch(`${server.url}/api/updates/manifest`, {
      headers: { 'ota-platform': 'ios', 'ota-runtime-version': '1.0.0(1)', 'ota-channel-name': 'production' },
    }).then((r) => r.arrayBuffer());

    const logs = server.logs.text;
    for (const secret of [...seen, URL_SECRET]) {
      expect(logs).not.toContain(secret);
      expect(body).not.toContain(secret);
      expect(rejectedBody).not.toContain(secret);
    }
    expect(logs).not.toMatch(/PRIVATE KEY/);
  });
});
