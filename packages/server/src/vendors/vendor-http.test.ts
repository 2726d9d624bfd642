import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VendorFailure } from './vendor-client.js';
import { vendorExchange } from './vendor-http.js';

// A vendor API never redirects; following one would send the vendor request (identity included)
// wherever the Location header points.
describe('vendorExchange', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/moved') {
        response.writeHead(302, { location: '/elsewhere' }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // A signal that never fires: these exchanges are not about the deadline, so they wait for the
  // local server however busy the machine is (the test's hang guard bounds a hang).
  const post = (path: string) =>
    vendorExchange(`${base}${path}`, { method: 'POST', headers: {}, body: '{}' }, new AbortController().signal);

  it('answers the status and body of a plain exchange', async () => {
    expect(await post('/api')).toEqual({ status: 200, body: '{"ok":true}' });
  });

  it('refuses a redirect as the vendor being unavailable, without following it', async () => {
    hits.length = 0;
    const failure = await post('/moved').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VendorFailure);
    expect((failure as VendorFailure).kind).toBe('unavailable');
    expect(hits).toEqual(['/moved']);
  });
});
