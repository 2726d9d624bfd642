import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from '../../scripts/vite-precompress.js';

/** The Ferry server this dev server forwards API calls to (`npm run dev -w @ferry/console`). */
const FERRY_URL = process.env.FERRY_URL ?? 'http://localhost:3000';

export default defineConfig({
  // Served by the Ferry server under /console/ (routes/console-app.ts).
  base: '/console/',
  plugins: [react(), precompress()],
  // The shared packages are built from their TypeScript sources (their `@ferry/source` export).
  resolve: { conditions: ['@ferry/source', ...defaultClientConditions] },
  // No inline script or style may be emitted: the server's CSP forbids both. Source maps stay beside
  // the build, unreferenced; the server never serves them.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden', assetsInlineLimit: 0 },
  server: { proxy: { '/api': FERRY_URL } },
});
