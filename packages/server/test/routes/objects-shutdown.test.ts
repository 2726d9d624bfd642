import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, it } from 'vitest';
import { startTestServer } from '../support/test-server.js';

// Regression: an upload still streaming when close() began kept its keep-alive socket open until
// the 72 s keep-alive timeout, so shutdown (and test teardown) hung.
it('close() completes the in-flight upload, then releases its keep-alive socket', async () => {
  const server = await startTestServer('sqlite');
  const body = randomBytes(64 * 1024);
  const signed = await server.app.ferry.objects.signedPutUrl('uploads/slow.bin', {
    contentType: 'application/octet-stream',
    ttlSeconds: 60,
  });
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(signed.url);
  const request = http.request({
    agent,
    host: url.hostname,
    port: url.port,
    path: `${url.pathname}${url.search}`,
    method: 'PUT',
    headers: { ...signed.headers, 'content-length': body.length },
  });
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  request.write(body.subarray(0, 1000));
  await new Promise((resolve) => setTimeout(resolve, 100));

  // The app's own close (the harness's close() cuts connections; shutdown must not need that).
  let closed = false;
  const closing = server.app.close().then(() => {
    closed = true;
  });
  request.end(body.subarray(1000));
  expect(await status).toBe(201);
  // Far below the keep-alive timeout: only ending the socket lets close() return this soon.
  await expect.poll(() => closed, { timeout: 20_000, interval: 50 }).toBe(true);
  await closing;
  agent.destroy();
  await server.close();
});
