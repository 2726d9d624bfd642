import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { WEB_CONTENT_SECURITY_POLICY } from '../../src/routes/web.js';
import { describeEachEngine } from '../support/engines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const AES_KEY = randomBytes(32);
const PRODUCTION_ENV = { CERT_AES_KEY: AES_KEY.toString('base64') };

/** A stand-in for apps/web/dist: index.html, one hashed asset, and the build manifest. */
function fakeBuild(certAesKeySha256: string | null | undefined): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-web-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Request a certificate</title>');
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  if (certAesKeySha256 !== undefined) {
    fs.writeFileSync(path.join(root, 'ferry-web-build.json'), JSON.stringify({ certAesKeySha256 }));
  }
  return root;
}

const keyHash = createHash('sha256').update(AES_KEY).digest('hex');
// Only the web route's decision is under test; the rest of production configuration is not.
const asProduction = (config: Config): Config => ({ ...config, production: true });

describeEachEngine('web app at /', (engine) => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = fakeBuild(null);
    server = await startTestServer(engine, { webRoot: root });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html under a strict content security policy, revalidated on every load', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(WEB_CONTENT_SECURITY_POLICY);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('Request a certificate');
  });

  it('serves hashed assets as immutable', async () => {
    const response = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown paths with the JSON error body and leaves the API routes alone', async () => {
    const missing = await fetch(`${server.url}/nope.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('NOT_FOUND');
    const traversal = await fetch(`${server.url}/..%2f..%2fpackage.json`);
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(traversal.status).toBeLessThan(500);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('web app builds the server will not serve', () => {
  const cases: Array<[string, { production: boolean; hash: string | null | undefined; index?: boolean }, string]> = [
    ['no build at all', { production: false, hash: null, index: false }, 'WEB_NOT_BUILT'],
    ['production, built without VITE_CERT_AES_KEY', { production: true, hash: null }, 'WEB_MISCONFIGURED'],
    ['production, built for another key', { production: true, hash: 'ab'.repeat(32) }, 'WEB_MISCONFIGURED'],
    ['production, no build manifest', { production: true, hash: undefined }, 'WEB_MISCONFIGURED'],
  ];
  it.each(cases)('%s: / answers 503 %s', async (_case, { production, hash, index }, code) => {
    const root = fakeBuild(hash);
    if (index === false) fs.rmSync(path.join(root, 'index.html'));
    const server = await startTestServer('sqlite', {
      webRoot: root,
      env: PRODUCTION_ENV,
      configure: production ? asProduction : undefined,
    });
    try {
      const response = await fetch(`${server.url}/`);
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe(code);
      // The reason is in the log for the operator; the key never is.
      expect(server.logs.text).not.toContain(AES_KEY.toString('base64'));
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('production serves a build made with its own key', async () => {
    const root = fakeBuild(keyHash);
    const server = await startTestServer('sqlite', { webRoot: root, env: PRODUCTION_ENV, configure: asProduction });
    try {
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
