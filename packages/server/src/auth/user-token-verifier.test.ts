import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDevelopmentToken } from '@ferry/dev-tools';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUserTokenVerifier, InvalidUserTokenError } from './user-token-verifier.js';

const SECRET = 'a-user-token-secret-of-at-least-32-chars';

describe('user token verification (HS256)', () => {
  const verify = createUserTokenVerifier({ secret: SECRET, certifiedClaim: 'certified' });

  it('reads the user id from sub and the certified claim', async () => {
    expect(await verify(await signDevelopmentToken({ userId: 'alice', secret: SECRET }))).toEqual({
      userId: 'alice',
      certified: true,
    });
    expect(await verify(await signDevelopmentToken({ userId: 'bob', secret: SECRET, certified: false }))).toEqual({
      userId: 'bob',
      certified: false,
    });
  });

  it('only a literal true certifies', async () => {
    const token = await new SignJWT({ certified: 'true' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('carol')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect((await verify(token)).certified).toBe(false);
  });

  it.each([
    ['another secret', () => signDevelopmentToken({ userId: 'u', secret: 'x'.repeat(40) })],
    [
      'an expired token',
      () =>
        signDevelopmentToken({
          userId: 'u',
          secret: SECRET,
          now: new Date(Date.now() - 7200_000),
          expiresInSeconds: 60,
        }),
    ],
    [
      'no sub',
      () =>
        new SignJWT({ certified: true })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(SECRET)),
    ],
    [
      'no exp',
      () =>
        new SignJWT({ certified: true })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .sign(new TextEncoder().encode(SECRET)),
    ],
    [
      'alg none',
      async () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"u","certified":true,"exp":9999999999}').toString('base64url')}.`,
    ],
    ['garbage', async () => 'not.a.token'],
    ['a sub with a NUL', () => signDevelopmentToken({ userId: 'u\u0000v', secret: SECRET })],
    ['a sub with a line break', () => signDevelopmentToken({ userId: 'u\nv', secret: SECRET })],
  ])('refuses %s', async (_name, token) => {
    await expect(verify(await token())).rejects.toBeInstanceOf(InvalidUserTokenError);
  });

  // Verified tokens are remembered until their exp (user-token-verifier.ts); the memory must not
  // let a token outlive it.
  it('refuses a token it verified before once its exp (plus the 5 s tolerance) has passed', async () => {
    const fresh = createUserTokenVerifier({ secret: SECRET, certifiedClaim: 'certified' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const token = await signDevelopmentToken({ userId: 'erin', secret: SECRET, expiresInSeconds: 60 });
      expect((await fresh(token)).userId).toBe('erin');
      vi.setSystemTime(Date.now() + 60_000);
      expect((await fresh(token)).userId).toBe('erin');
      vi.setSystemTime(Date.now() + 6_000);
      await expect(fresh(token)).rejects.toBeInstanceOf(InvalidUserTokenError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('checks issuer and audience only when configured', async () => {
    const strict = createUserTokenVerifier({
      secret: SECRET,
      issuer: 'https://id.example',
      audience: 'ferry',
      certifiedClaim: 'certified',
    });
    const plain = await signDevelopmentToken({ userId: 'u', secret: SECRET });
    await expect(strict(plain)).rejects.toBeInstanceOf(InvalidUserTokenError);
    const good = await signDevelopmentToken({
      userId: 'u',
      secret: SECRET,
      issuer: 'https://id.example',
      audience: 'ferry',
    });
    expect((await strict(good)).userId).toBe('u');
    expect((await verify(good)).userId).toBe('u');
  });

  it('honours a configured claim name', async () => {
    const custom = createUserTokenVerifier({ secret: SECRET, certifiedClaim: 'https://example.com/certified' });
    const token = await signDevelopmentToken({
      userId: 'u',
      secret: SECRET,
      certifiedClaim: 'https://example.com/certified',
    });
    expect((await custom(token)).certified).toBe(true);
    expect((await verify(token)).certified).toBe(false);
  });
});

describe('user token verification (JWKS)', () => {
  let server: http.Server;
  let jwksUrl: string;
  let sign: (claims: Record<string, unknown>) => Promise<string>;
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    sign = (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('dave')
        .setExpirationTime('1h')
        .sign(privateKey);
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('verifies with the identity provider’s published keys', async () => {
    const verify = createUserTokenVerifier({ jwksUrl, certifiedClaim: 'certified' });
    expect(await verify(await sign({ certified: true }))).toEqual({ userId: 'dave', certified: true });
  });

  it('refuses an HS256 token signed with a guessed secret', async () => {
    const verify = createUserTokenVerifier({ jwksUrl, certifiedClaim: 'certified' });
    await expect(verify(await signDevelopmentToken({ userId: 'dave', secret: SECRET }))).rejects.toBeInstanceOf(
      InvalidUserTokenError,
    );
  });
});
