import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// The server's own verifier (from its sources): the token this command signs is one the server accepts.
import { createUserTokenVerifier } from '../../../server/src/auth/user-token-verifier.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { devTokenCommand, parseDuration } from './dev-token.js';

const SECRET = 'a-development-secret-of-at-least-32-chars';

describe('ferry dev-token', () => {
  let dir: string;
  let out: CapturedOutput;
  let stderr: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-dev-token-'));
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ferry = (env: NodeJS.ProcessEnv, ...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    devTokenCommand(out, env)(program);
    return main(['node', 'ferry', ...args], program);
  };
  const verify = (secret: string) => createUserTokenVerifier({ secret, certifiedClaim: 'certified' });

  it('prints a certified token for the user, signed with the secret npm start generated', async () => {
    fs.mkdirSync(path.join(dir, 'dev'));
    fs.writeFileSync(path.join(dir, 'dev', 'jwt-secret'), `${SECRET}\n`);
    expect(await ferry({}, 'dev-token', '--user', 'alice', '--data-dir', dir)).toBe(0);
    const token = out.text.trim();
    expect(await verify(SECRET)(token)).toEqual({ userId: 'alice', certified: true });
  });

  it('prefers AUTH_JWT_SECRET and honours issuer, audience and lifetime', async () => {
    const env = { AUTH_JWT_SECRET: SECRET, AUTH_JWT_ISSUER: 'https://id.example', AUTH_JWT_AUDIENCE: 'ferry' };
    expect(await ferry(env, 'dev-token', '--user', 'bob', '--expires-in', '30m')).toBe(0);
    const token = out.text.trim();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: 'bob', iss: 'https://id.example', aud: 'ferry', certified: true });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(1800);
    const verifier = createUserTokenVerifier({
      secret: SECRET,
      issuer: 'https://id.example',
      audience: 'ferry',
      certifiedClaim: 'certified',
    });
    expect((await verifier(token)).userId).toBe('bob');
  });

  it('--not-certified leaves the claim false', async () => {
    expect(await ferry({ AUTH_JWT_SECRET: SECRET }, 'dev-token', '--user', 'carol', '--not-certified')).toBe(0);
    expect(await verify(SECRET)(out.text.trim())).toEqual({ userId: 'carol', certified: false });
  });

  it('fails with a clear message when there is no secret', async () => {
    expect(await ferry({}, 'dev-token', '--user', 'dave', '--data-dir', dir)).toBe(1);
    expect(stderr).toMatch(/AUTH_JWT_SECRET/);
    expect(out.text).toBe('');
  });

  it('refuses to run with NODE_ENV=production', async () => {
    expect(await ferry({ NODE_ENV: 'production', AUTH_JWT_SECRET: SECRET }, 'dev-token', '--user', 'eve')).toBe(1);
    expect(stderr).toMatch(/development tokens only/);
    expect(out.text).toBe('');
  });

  it.each([
    ['90', 90],
    ['30m', 1800],
    ['12h', 43200],
    ['7d', 604800],
  ])('parses --expires-in %s', (raw, seconds) => {
    expect(parseDuration(raw)).toBe(seconds);
  });

  it.each(['0', '-1', '1w', 'soon', '400d'])('rejects --expires-in %s', (raw) => {
    expect(() => parseDuration(raw)).toThrow();
  });
});
