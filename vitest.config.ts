import { defineConfig } from 'vitest/config';
import { HANG_GUARD_MS } from './test/support/hang-guard.cjs';

// Workspace packages resolve to their TypeScript sources under test (the `@ferry/source` export
// condition), so a test never runs against a stale dist/; installed packages use dist/.
const SOURCE = '@ferry/source';

export default defineConfig({
  // Node's own conditions otherwise: Vite's server defaults add `module`, which loads ESM builds
  // some dependencies (@aws-sdk/*) do not mean for Node.
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed requirement (test/support/hang-guard.cjs): tests wait on events and
    // readiness, so a loaded machine makes them slower, never failing. expect.poll() likewise waits
    // until its condition holds; pass no `timeout` to it.
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    expect: { poll: { timeout: HANG_GUARD_MS } },
    // PostgreSQL-backed suites create their own databases, so files can run in parallel.
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
