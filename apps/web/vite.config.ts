import { createHash } from 'node:crypto';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, loadEnv, type Plugin } from 'vite';
import { precompress } from '../../scripts/vite-precompress.js';

/** The Ferry server this dev server forwards API calls to (`npm run dev -w @ferry/web`). */
const FERRY_URL = process.env.FERRY_URL ?? 'http://localhost:3000';

/**
 * Writes ferry-web-build.json next to index.html: which AES key (by SHA-256, never the key) the
 * build embeds, so a production server can refuse to serve a page built for another environment.
 */
const buildManifest = (key: string | undefined): Plugin => ({
  name: 'ferry-web-build',
  generateBundle() {
    const certAesKeySha256 = key ? createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex') : null;
    this.emitFile({
      type: 'asset',
      fileName: 'ferry-web-build.json',
      source: `${JSON.stringify({ certAesKeySha256 }, null, 2)}\n`,
    });
  },
});

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const key = env.VITE_CERT_AES_KEY;
  // A wrong key would only show up as failed requests in production; fail the build instead.
  if (key && !(/^[A-Za-z0-9+/]+={0,2}$/.test(key) && Buffer.from(key, 'base64').length === 32)) {
    throw new Error('VITE_CERT_AES_KEY must be the Base64 of exactly 32 bytes');
  }
  return {
    plugins: [react(), buildManifest(key), precompress()],
    // The shared packages are built from their TypeScript sources (their `@ferry/source` export).
    resolve: { conditions: ['@ferry/source', ...defaultClientConditions] },
    // Source maps stay beside the build for error reports, unreferenced; the server never serves them.
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden' },
    server: {
      proxy: Object.fromEntries(['/v2', '/dev', '/objects'].map((prefix) => [prefix, FERRY_URL])),
    },
  };
});
