import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import { inFlightRequest } from '../support/in-flight-request.js';
import { startTestServer } from '../support/test-server.js';

// Regression: an upload still streaming when close() began kept its keep-alive socket open until
// the keep-alive timeout, so shutdown (and test teardown) hung.
it('close() completes the in-flight upload, then releases its keep-alive socket', async () => {
  const server = await startTestServer('sqlite');
  const body = randomBytes(64 * 1024);
  const signed = await server.app.objectStore.signedPutUrl('uploads/slow.bin', {
    contentType: 'application/octet-stream',
    ttlSeconds: 60,
  });
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(signed.url);
  const upload = inFlightRequest(
    {
      agent,
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: 'PUT',
      headers: signed.headers,
    },
    body,
    1000,
    { announce: true },
  );
  // The server has the request in hand (it answered 100 Continue) before shutdown begins.
  await upload.received;
  // Only the server ending the socket lets close() return: a keep-alive timeout longer than the
  // hang guard turns "waited for the timeout" into a failure rather than a slow pass.
  server.app.server.keepAliveTimeout = 2 * HANG_GUARD_MS;

  // The app's own close (the harness's close() cuts connections; shutdown must not need that).
  let closed = false;
  const closing = server.app.close().then(() => {
    closed = true;
  });
  upload.finish();
  expect(await upload.status).toBe(201);
  await closing;
  expect(closed).toBe(true);
  agent.destroy();
  await server.close();
});
