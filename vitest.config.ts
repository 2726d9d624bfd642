import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PostgreSQL-backed suites create their own databases, so files can run in parallel.
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
