import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY, consoleAppRoutes } from '../../src/routes/console-app.js';

/** A stand-in for apps/console/dist: index.html and one hashed asset. */
function fakeBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-console-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Ferry release console</title>');
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  return root;
}

describe('the release console at /console/', () => {
  let app: FastifyInstance;
  let unbuilt: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    root = fakeBuild();
    app = Fastify();
    await consoleAppRoutes(app, { root });
    unbuilt = Fastify({ logger: false });
    await consoleAppRoutes(unbuilt, { root: path.join(root, 'missing') });
  });
  afterAll(async () => {
    await app.close();
    await unbuilt.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html under a strict policy: own scripts and styles only, nothing inline, not framed', async () => {
    const page = await app.inject('/console/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Ferry release console');
    const csp = page.headers['content-security-policy'];
    expect(csp).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('redirects /console to /console/ and caches hashed assets for good', async () => {
    const bare = await app.inject('/console');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/console/');
    const asset = await app.inject('/console/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 503 CONSOLE_NOT_BUILT when there is no build, instead of failing start-up', async () => {
    for (const url of ['/console', '/console/']) {
      const response = await unbuilt.inject(url);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: { code: 'CONSOLE_NOT_BUILT' } });
    }
  });
});
