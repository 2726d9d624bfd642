import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources under test (the `@ferry/source` export
// condition), so a test never runs against a stale dist/; installed packages use dist/.
const SOURCE = '@ferry/source';

export default defineConfig({
  // Node's own conditions otherwise: Vite's server defaults add `module`, which loads ESM builds
  // some dependencies (@aws-sdk/*) do not mean for Node.
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PostgreSQL-backed suites create their own databases, so files can run in parallel.
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
