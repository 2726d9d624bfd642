import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { CONSOLE_CSRF_HEADER } from '@ferry/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashOfBytes } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 34, item 10: a client that sends a request body a byte now and then no longer holds its
 * connection for ever. The deadlines here are short (the product's are tens of seconds); the tests
 * wait for the server to close the connections, never for a time.
 */
const BODY_TIMEOUT_MS = 1000;

interface SlowClient {
  /** Resolves with everything the server sent once it closed the connection. */
  closed: Promise<string>;
  /** What the server sent so far. */
  received(): string;
  /** Writes more bytes (no-op once closed). */
  send(bytes: string | Buffer): void;
  destroy(): void;
}

/** A raw connection that sends `head` and then whatever the test trickles, until the server closes it. */
function slowClient(server: TestServer, head: string): Promise<SlowClient> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer is a close too: only the bytes received matter.
    socket.on('error', () => {});
    const closed = new Promise<string>((done) =>
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1'))),
    );
    socket.once('connect', () => {
      socket.write(head);
      resolve({
        closed,
        received: () => Buffer.concat(chunks).toString('latin1'),
        send: (bytes) => {
          if (!socket.destroyed && socket.writable) socket.write(bytes);
        },
        destroy: () => socket.destroy(),
      });
    });
    socket.once('error', reject);
  });
}

/** A sign-in request (open to anyone) whose body is announced but never sent whole. */
const signInHead = (server: TestServer, length = 1000) =>
  [
    'POST /api/console/session HTTP/1.1',
    `Host: ${new URL(server.url).host}`,
    'Content-Type: application/json',
    `${CONSOLE_CSRF_HEADER}: 1`,
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');

describe('slow request bodies (BODY_TIMEOUT_MS)', () => {
  let server: TestServer;
  const clients: SlowClient[] = [];
  const tricklers: NodeJS.Timeout[] = [];
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      env: { BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS), UPLOAD_TIMEOUT_MS: '600000' },
    });
  });
  afterEach(() => {
    for (const timer of tricklers.splice(0)) clearInterval(timer);
    for (const client of clients.splice(0)) client.destroy();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Opens a slow client that sends one more byte of its body every 100 ms. */
  const trickling = async (head: string) => {
    const client = await slowClient(server, head);
    clients.push(client);
    tricklers.push(setInterval(() => client.send(' '), 100));
    return client;
  };

  it('cuts off clients that trickle a body, with 408 and a closed connection, while serving everyone else', async () => {
    const logged = server.logs.lines.length;
    const slow = await Promise.all(Array.from({ length: 20 }, () => trickling(signInHead(server))));
    // While they are open, other clients are served.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const answers = await Promise.all(slow.map((client) => client.closed));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        error: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.', details: {} },
      });
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // A client cut off is not a server problem: nothing is logged as a warning (it used to read as a
    // database outage, the broken-off body being ECONNRESET).
    expect(
      server.logs
        .entries()
        .slice(logged)
        .filter((entry) => Number(entry.level) >= 40),
    ).toEqual([]);
  });

  it('closes a connection that was answered early but keeps trickling the rest of its body', async () => {
    // A refused upload (no valid signature) is answered at once; the rest of its body is not waited for.
    const head = [
      `PUT /objects/updates/assets/${'a'.repeat(43)} HTTP/1.1`,
      `Host: ${new URL(server.url).host}`,
      'Content-Type: application/octet-stream',
      'Content-Length: 100000',
      '',
      '',
    ].join('\r\n');
    const client = await trickling(head);
    const answer = await client.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('gives a signed upload the longer UPLOAD_TIMEOUT_MS once its signature is checked', async () => {
    const body = randomBytes(64);
    const assets = await server.authed('/api/updates/assets', {
      method: 'POST',
      body: JSON.stringify({
        channel: 'production',
        runtimeVersion: '1.0.0(slow)',
        assets: [{ hash: hashOfBytes(body), contentType: 'application/octet-stream', size: body.length }],
      }),
    });
    expect(assets.status).toBe(200);
    const [asset] = (await assets.json()).assets as Array<{ uploadUrl: string; uploadHeaders: Record<string, string> }>;
    const target = new URL(asset!.uploadUrl);
    const upload = await slowClient(
      server,
      [
        `PUT ${target.pathname}${target.search} HTTP/1.1`,
        `Host: ${target.host}`,
        ...Object.entries(asset!.uploadHeaders).map(([name, value]) => `${name}: ${value}`),
        `Content-Length: ${body.length}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    clients.push(upload);
    upload.send(body.subarray(0, 10));
    // A sign-in started after the upload is cut off at BODY_TIMEOUT_MS: by then the upload has
    // outlived that deadline too, and is still open.
    const later = await trickling(signInHead(server));
    expect(await later.closed).toMatch(/^HTTP\/1\.1 408 /);
    upload.send(body.subarray(10));
    expect(await upload.closed).toMatch(/^HTTP\/1\.1 201 /);
  });
});

describe('idle connections (IDLE_TIMEOUT_MS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { IDLE_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes a connection that sends nothing', async () => {
    const client = await slowClient(server, '');
    expect(await client.closed).toBe('');
  });
});

describe('connections per address (MAX_CONNECTIONS_PER_ADDRESS)', () => {
  let server: TestServer;
  const open: SlowClient[] = [];
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { MAX_CONNECTIONS_PER_ADDRESS: '3' } });
  });
  afterAll(async () => {
    for (const client of open) client.destroy();
    await server?.close();
  });

  it('closes connections past the limit at once, and admits new ones when others close', async () => {
    const { host } = new URL(server.url);
    const keepAlive = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    // Three kept-alive connections, each answered (so the server has counted it).
    for (let i = 0; i < 3; i++) {
      const client = await slowClient(server, keepAlive);
      open.push(client);
      await expect.poll(() => client.received()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const fourth = await slowClient(server, keepAlive);
    expect(await fourth.closed).toBe('');
    open.shift()!.destroy();
    // Once the server saw that close, a new connection is admitted.
    await expect
      .poll(() =>
        fetch(`${server.url}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      )
      .toBe(200);
  });
});
