import { randomBytes } from 'node:crypto';
import { CONSOLE_CSRF_HEADER } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 34, item 4: per-address limits count the address TRUST_PROXY resolves. Without it no
 * X-Forwarded-For is believed, so rotating the header gets no new budget; with the test client
 * (127.0.0.1) named as a proxy, the addresses it forwards count apart; with a hop count of 1,
 * addresses a client prepends to the header change nothing.
 */
const LIMIT = 4;
const env = { RELEASE_RATE_LIMIT_PER_MINUTE: String(LIMIT), BASELINE_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

/** The two per-address limits the attack went through: console sign-in and baseline lookups. */
const limited = {
  'POST /api/console/session': (server: TestServer, forwardedFor?: string) =>
    fetch(`${server.url}/api/console/session`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CONSOLE_CSRF_HEADER]: '1',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify({ token: `ferry_op_${randomBytes(32).toString('base64url')}` }),
    }),
  'GET /api/updates/baseline-fingerprint': (server: TestServer, forwardedFor?: string) =>
    fetch(`${server.url}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=1.0.0(1)`, {
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    }),
};
const routes = Object.entries(limited);

/** How many of `count` requests got through before the first 429 (and that one did come). */
async function admittedBefore429(send: (n: number) => Promise<Response>, count = LIMIT * 3): Promise<number> {
  for (let n = 0; n < count; n++) {
    const response = await send(n);
    if (response.status === 429) {
      expect((await response.json()).error.code).toBe('RATE_LIMITED');
      return n;
    }
    expect([200, 401, 404]).toContain(response.status);
  }
  throw new Error(`no 429 in ${count} requests`);
}

/** A production instance (which used to trust every hop) of the OTA area. */
const production = { NODE_ENV: 'production', FERRY_AREAS: 'ota', OBJECT_URL_SIGNING_SECRET: 's'.repeat(40) };

describe('TRUST_PROXY unset, in production too: no X-Forwarded-For is believed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { ...env, ...production } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(routes)('%s: a new forged address on every request still meets the limit', async (_name, send) => {
    expect(await admittedBefore429(() => send(server, randomAddress()))).toBe(LIMIT);
  });
});

describe('TRUST_PROXY naming the proxy (127.0.0.1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { ...env, TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(routes)('%s: the clients it forwards for count apart', async (_name, send) => {
    const first = randomAddress();
    const second = randomAddress();
    expect(await admittedBefore429(() => send(server, first))).toBe(LIMIT);
    expect(await admittedBefore429(() => send(server, second))).toBe(LIMIT);
    // The first client's budget is still used up.
    expect((await send(server, first)).status).toBe(429);
  });
});

describe('TRUST_PROXY=1 (one load balancer)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { ...env, TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(routes)(
    '%s: addresses the client prepends do not help; the hop the proxy added counts',
    async (_name, send) => {
      // The load balancer appends the address it saw; the attacker writes anything before it.
      const client = randomAddress();
      expect(await admittedBefore429(() => send(server, `${randomAddress()}, ${randomAddress()}, ${client}`))).toBe(
        LIMIT,
      );
      // Another client (another address appended by the proxy) has a budget of its own.
      const other = randomAddress();
      expect(await admittedBefore429(() => send(server, `${randomAddress()}, ${other}`))).toBe(LIMIT);
    },
  );
});
