import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

/** The Ferry server this dev server forwards API calls to (`npm run dev -w @ferry/web`). */
const FERRY_URL = process.env.FERRY_URL ?? 'http://localhost:3000';

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const key = env.VITE_CERT_AES_KEY;
  // A wrong key would only show up as failed requests in production; fail the build instead.
  if (key && !(/^[A-Za-z0-9+/]+={0,2}$/.test(key) && Buffer.from(key, 'base64').length === 32)) {
    throw new Error('VITE_CERT_AES_KEY must be the Base64 of exactly 32 bytes');
  }
  return {
    plugins: [react()],
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
    server: {
      proxy: Object.fromEntries(['/v2', '/dev', '/objects'].map((prefix) => [prefix, FERRY_URL])),
    },
  };
});
