import { CONSOLE_CSRF_HEADER } from '@ferry/contracts';
import { signDevelopmentToken } from '@ferry/dev-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import {
  type CertificateTestServer,
  startCertificateServer,
  TEST_JWT_SECRET,
  TEST_OPERATOR_TOKEN,
} from '../support/certificates.js';
import {
  deleteKeysUnder,
  describeWithRedis,
  keysUnder,
  REDIS_TEST_URL,
  sharedRateLimits,
  uniqueKeyPrefix,
} from '../support/redis.js';
import { startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * Issue 34, item 5: refused credentials are counted per client address, and past
 * AUTH_FAILURE_LIMIT_PER_MINUTE every authentication from that address answers 429, a correct one
 * included. The servers trust the test client (127.0.0.1) as a proxy, so each case can play a
 * client address of its own through X-Forwarded-For.
 */
const LIMIT = 3;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const RELEASES = '/api/updates/releases?channel=production&platform=ios&runtimeVersion=1.0.0(1)';
let addresses = 0;
const freshAddress = () => `198.51.100.${++addresses}`;

type Attempt = (server: CertificateTestServer, address: string, credential: 'right' | 'wrong') => Promise<Response>;

const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectThrottled(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await response.json()).toEqual({
    error: {
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many failed authentications from this address; retry in \d+ s\.$/),
      details: { limit: LIMIT },
    },
  });
}

describe('refused credentials per client address (AUTH_FAILURE_LIMIT_PER_MINUTE)', () => {
  let server: CertificateTestServer;
  let operatorToken: string;
  let userToken: string;
  let sessionCookie: string;

  beforeAll(async () => {
    server = await startCertificateServer('sqlite', {
      env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1', METRICS_TOKEN },
    });
    const created = await new OperatorTokenStore(server.app.database.db).create(
      { name: 'admin-1', role: 'admin' },
      { actor: 'test' },
    );
    operatorToken = created.token;
    userToken = await server.tokenFor('user-1');
    const signIn = await signInAs(server, freshAddress(), operatorToken);
    expect(signIn.status).toBe(200);
    sessionCookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  });
  afterAll(async () => {
    await server?.close();
  });

  const signInAs = (target: TestServer, address: string, token: string) =>
    fetch(`${target.url}/api/console/session`, {
      method: 'POST',
      headers: from(address, { 'content-type': 'application/json', [CONSOLE_CSRF_HEADER]: '1' }),
      body: JSON.stringify({ token }),
    });

  const cases: Array<[string, Attempt]> = [
    [
      'the release token (OTA_RELEASE_TOKEN)',
      (s, address, credential) =>
        fetch(s.url + RELEASES, {
          headers: from(address, bearer(credential === 'right' ? TEST_RELEASE_TOKEN : 'not-the-release-token')),
        }),
    ],
    [
      'an operator token',
      (s, address, credential) =>
        fetch(`${s.url}/api/operator-tokens`, {
          headers: from(address, bearer(credential === 'right' ? operatorToken : `ferry_op_${'x'.repeat(43)}`)),
        }),
    ],
    [
      'the console sign-in',
      (s, address, credential) =>
        signInAs(s, address, credential === 'right' ? operatorToken : `ferry_op_${'y'.repeat(43)}`),
    ],
    [
      'the console session cookie',
      (s, address, credential) =>
        fetch(`${s.url}/api/console/session`, {
          headers: from(address, { cookie: credential === 'right' ? sessionCookie : 'ferry_console=made-up-session' }),
        }),
    ],
    [
      'the metrics token (METRICS_TOKEN)',
      (s, address, credential) =>
        fetch(`${s.url}/metrics`, {
          headers: from(address, bearer(credential === 'right' ? METRICS_TOKEN : 'metrics-token-guess-000000')),
        }),
    ],
    [
      'a certificate user JWT',
      (s, address, credential) =>
        fetch(`${s.url}/v2/user/assignments/assignment-1`, {
          headers: from(address, bearer(credential === 'right' ? userToken : `${userToken.slice(0, -4)}AAAA`)),
        }),
    ],
    [
      'the certificate operator token (OPERATOR_TOKEN)',
      (s, address, credential) =>
        fetch(`${s.url}/v2/operator/assignments`, {
          method: 'POST',
          headers: from(address, {
            'content-type': 'application/json',
            ...bearer(credential === 'right' ? TEST_OPERATOR_TOKEN : 'test-operator-token-guess'),
          }),
          body: JSON.stringify({}),
        }),
    ],
  ];

  it.each(cases)(
    '%s: past the limit 429 with Retry-After, a right one too; other addresses unaffected',
    async (_name, attempt) => {
      const attacker = freshAddress();
      for (let i = 0; i < LIMIT; i++) expect((await attempt(server, attacker, 'wrong')).status).toBe(401);
      await expectThrottled(await attempt(server, attacker, 'wrong'));
      // Over the limit, a right credential is refused too: otherwise a guesser would learn it was right.
      await expectThrottled(await attempt(server, attacker, 'right'));
      // Another address is not affected: its right credential is accepted (whatever the route then says).
      const other = await attempt(server, freshAddress(), 'right');
      expect([401, 429]).not.toContain(other.status);
    },
  );

  it('accepted credentials and requests without any count nothing', async () => {
    const address = freshAddress();
    const releases = (headers: Record<string, string>) =>
      fetch(server.url + RELEASES, { headers: from(address, headers) });
    for (let i = 0; i < LIMIT * 3; i++) {
      expect((await releases(bearer(TEST_RELEASE_TOKEN))).status).toBe(200);
      expect((await releases({})).status).toBe(401);
    }
    for (let i = 0; i < LIMIT; i++) expect((await releases(bearer('not-the-release-token'))).status).toBe(401);
    await expectThrottled(await releases(bearer('not-the-release-token')));
  });

  it('an expired user JWT is refused without counting (it was issued, not guessed)', async () => {
    const address = freshAddress();
    const expired = await signDevelopmentToken({
      userId: 'user-2',
      secret: TEST_JWT_SECRET,
      now: new Date(Date.now() - 86_400_000),
      expiresInSeconds: 60,
    });
    const send = (token: string) =>
      fetch(`${server.url}/v2/user/assignments/assignment-1`, { headers: from(address, bearer(token)) });
    for (let i = 0; i < LIMIT * 2; i++) expect((await send(expired)).status).toBe(401);
    expect([401, 429]).not.toContain((await send(userToken)).status);
  });

  it('counts the client address TRUST_PROXY resolves, not the one the client claims first', async () => {
    // 127.0.0.1 is the trusted proxy: the hop it appended names the client; what precedes it is the client's say.
    const address = freshAddress();
    const guess = (n: number) =>
      fetch(server.url + RELEASES, {
        headers: { 'x-forwarded-for': `203.0.113.${n}, ${address}`, ...bearer('not-the-release-token') },
      });
    for (let i = 0; i < LIMIT; i++) expect((await guess(i)).status).toBe(401);
    await expectThrottled(await guess(LIMIT));
  });
});

describeWithRedis('refused credentials with REDIS_URL', () => {
  const prefix = uniqueKeyPrefix();
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const options = {
      env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: REDIS_TEST_URL },
      configure: sharedRateLimits(prefix),
    };
    a = await startTestServer('sqlite', options);
    b = await startTestServer('sqlite', { ...options, database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await deleteKeysUnder(prefix);
  });

  it('are counted once for every instance: wrong tokens split across two use the budget up on both', async () => {
    const guess = (server: TestServer) => fetch(server.url + RELEASES, { headers: bearer('not-the-release-token') });
    for (const server of [a, b, a]) expect((await guess(server)).status).toBe(401);
    await expectThrottled(await guess(b));
    await expectThrottled(await a.authed(RELEASES));
    // One counter, keyed by the address, never by a token.
    expect(await keysUnder(prefix)).toEqual([`${prefix}auth-failures:127.0.0.1`]);
  });
});
