import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Sends raw bytes and reads until the server closes the connection. */
function exchange(server: TestServer, request: Buffer): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    // No half-close: Node's server may drop a connection whose client ended it before the answers
    // were written. Every exchange here ends with a request the server closes the connection after.
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

const split = (response: string) => {
  const end = response.indexOf('\r\n\r\n');
  return { head: response.slice(0, end), body: response.slice(end + 4) };
};

describe('requests the HTTP parser or the router refuses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it.each([
    ['a raw non-ASCII byte in the path', 'GET /objects/\xff HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control character in the path', 'GET /api/\x01 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
  ])('%s gets the common error body and a closed connection', async (_name, raw) => {
    const { head, body } = split(await exchange(server, Buffer.from(raw, 'latin1')));
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(JSON.parse(body)).toEqual({
      error: { code: 'MALFORMED_REQUEST', message: expect.any(String), details: {} },
    });
  });

  it('HEAD gets no body, so the stream stays readable', async () => {
    const response = await exchange(server, Buffer.from('HEAD /objects/\xff HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
    const { head, body } = split(response);
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(body).toBe('');
  });

  it('a path that is not valid percent-encoding gets the common body on GET and none on HEAD', async () => {
    const get = await fetch(`${server.url}/api/updates/%E0%A4%A`);
    expect(get.status).toBeGreaterThanOrEqual(400);
    expect(get.status).toBeLessThan(500);
    const body = await get.json();
    expect(body).toEqual({
      error: { code: expect.any(String), message: expect.any(String), details: expect.any(Object) },
    });
    const head = split(
      await exchange(server, Buffer.from('HEAD /objects/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')),
    );
    expect(head.head).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(head.body).toBe('');
  });

  it('a keep-alive connection survives a refused request before it', async () => {
    // Two requests on one connection: an unknown route (404), then a valid one.
    const response = await exchange(
      server,
      Buffer.from(
        'HEAD /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ),
    );
    const [first, second] = response.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 404 /);
    expect(split(first!).body).toBe('');
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(split(second!).body)).toEqual({ status: 'ok' });
  });
});
