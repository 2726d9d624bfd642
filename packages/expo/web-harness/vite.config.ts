import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/**
 * The harness page: the native screens with react-native aliased to react-native-web, and the
 * shared packages built from their TypeScript sources. Served by the tests under /native-harness/
 * on the Ferry server's own origin (see e2e/support/harness.ts), so the API calls are same-origin.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/native-harness/',
  plugins: [react()],
  resolve: {
    conditions: ['@ferry/source', ...defaultClientConditions],
    alias: [{ find: /^react-native$/, replacement: 'react-native-web' }],
    extensions: ['.web.tsx', '.web.ts', '.web.js', '.tsx', '.ts', '.mjs', '.js', '.jsx', '.json'],
  },
  define: { __DEV__: 'false', 'process.env.NODE_ENV': JSON.stringify('production') },
  // One bundle for a test page; its size does not matter here.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
});
