import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viteBuild } from '../../../../test/support/browser/vite-build.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The two built apps the server serves, each built here from its sources with its own Vite config. */
const APPS = {
  web: { dir: fileURLToPath(new URL('../../../../apps/web', import.meta.url)), base: '/' },
  console: { dir: fileURLToPath(new URL('../../../../apps/console', import.meta.url)), base: '/console/' },
} as const;
type AppName = keyof typeof APPS;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they crossed the wire (not decoded). */
  body: Buffer;
}

/** A GET over HTTP that keeps the body as sent: fetch would decode it and hide the encoding. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const DECODE = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;

/** The script and style sheet index.html loads, as paths under the app's base. */
const loadedAssets = (html: string): string[] =>
  [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1] ?? '');

describe('the built web funnel and console: precompressed, immutable assets, no source maps', () => {
  let server: TestServer;
  const roots = {} as Record<AppName, string>;

  beforeAll(async () => {
    for (const name of Object.keys(APPS) as AppName[]) {
      roots[name] = fs.mkdtempSync(path.join(os.tmpdir(), `ferry-built-${name}-`));
      viteBuild(APPS[name].dir, undefined, { outDir: roots[name] });
    }
    server = await startTestServer('sqlite', { webRoot: roots.web, consoleRoot: roots.console });
  });
  afterAll(async () => {
    await server.close();
    for (const root of Object.values(roots)) fs.rmSync(root, { recursive: true, force: true });
  });

  const assetsOf = async (name: AppName): Promise<string[]> => {
    const index = await rawGet(`${server.url}${APPS[name].base}`);
    const assets = loadedAssets(index.body.toString('utf8'));
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    return assets;
  };

  describe.each(Object.keys(APPS) as AppName[])('%s', (name) => {
    it('answers each script and style sheet in the encoding asked for, smaller, and the same bytes decoded', async () => {
      for (const asset of await assetsOf(name)) {
        const identity = await rawGet(`${server.url}${asset}`);
        expect(identity.status, asset).toBe(200);
        expect(identity.headers['content-encoding'], asset).toBeUndefined();
        expect(identity.headers.vary, asset).toContain('accept-encoding');
        expect(identity.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
        expect(Number(identity.headers['content-length'])).toBe(identity.body.length);

        for (const [accept, encoding] of [
          ['br', 'br'],
          ['gzip', 'gzip'],
          // What Chromium sends: brotli is chosen when both are accepted.
          ['gzip, deflate, br, zstd', 'br'],
        ] as const) {
          const encoded = await rawGet(`${server.url}${asset}`, { 'accept-encoding': accept });
          expect(encoded.status, `${asset} ${accept}`).toBe(200);
          expect(encoded.headers['content-encoding'], `${asset} ${accept}`).toBe(encoding);
          expect(encoded.headers.vary, `${asset} ${accept}`).toContain('accept-encoding');
          expect(encoded.headers['content-type'], asset).toBe(identity.headers['content-type']);
          expect(encoded.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
          expect(Number(encoded.headers['content-length'])).toBe(encoded.body.length);
          expect(encoded.body.length, `${asset} ${accept}`).toBeLessThan(identity.body.length);
          expect(DECODE[encoding](encoded.body).equals(identity.body), `${asset} ${accept}`).toBe(true);
        }
      }
    });

    it('revalidates index.html on every load and never caches it for good', async () => {
      const index = await rawGet(`${server.url}${APPS[name].base}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(index.status).toBe(200);
      expect(index.headers['content-type']).toMatch(/^text\/html/);
      expect(index.headers['cache-control']).toBe('no-cache');
      expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    });

    it('serves no source map, and no compressed form under its own name', async () => {
      for (const asset of await assetsOf(name)) {
        const file = path.join(roots[name], asset.slice(APPS[name].base.length));
        const bundle = fs.readFileSync(file, 'utf8');
        // The bundles do not point at their maps, and the maps the build keeps are not served.
        expect(bundle).not.toContain('sourceMappingURL');
        if (asset.endsWith('.js')) expect(fs.existsSync(`${file}.map`), asset).toBe(true);
        for (const suffix of ['.map', '.br', '.gz']) {
          const answer = await rawGet(`${server.url}${asset}${suffix}`);
          expect(answer.status, `${asset}${suffix}`).toBe(404);
          expect(JSON.parse(answer.body.toString('utf8')).error.code).toBe('NOT_FOUND');
        }
      }
    });
  });
});
