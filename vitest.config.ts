import { configDefaults, defineConfig } from 'vitest/config';
import { HANG_GUARD_MS } from './test/support/hang-guard.cjs';

// Workspace packages resolve to their TypeScript sources under test (the `@ferry/source` export
// condition), so a test never runs against a stale dist/; installed packages use dist/.
const SOURCE = '@ferry/source';

/**
 * Files that measure how long the server held its event loop under a crowd (an upper bound the
 * spec sets). They run after everything else, alone, so another test file never shares the cores
 * with the process they measure.
 */
const MEASURED_ALONE = [
  'packages/server/test/ota/release-day.test.ts',
  'packages/server/test/ota/manifest-distinct-ids.test.ts',
];

/**
 * End-to-end files: they pack and install the packages outside the checkout (a registry, installs
 * that compile native addons), so they run in `.ci/run`'s end-to-end stage (`npm run
 * e2e:installed`) beside the other end-to-end scripts, not in `npm test`.
 */
const END_TO_END = ['test/deployment/server-bundle.test.ts', 'test/install/cli-install.test.ts'];

export default defineConfig({
  // Node's own conditions otherwise: Vite's server defaults add `module`, which loads ESM builds
  // some dependencies (@aws-sdk/*) do not mean for Node.
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    // A hang guard, not a speed requirement (test/support/hang-guard.cjs): tests wait on events and
    // readiness, so a loaded machine makes them slower, never failing. expect.poll() likewise waits
    // until its condition holds; pass no `timeout` to it.
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    expect: { poll: { timeout: HANG_GUARD_MS } },
    // PostgreSQL-backed suites create their own databases, so files can run in parallel.
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'ferry',
          include: [
            'packages/*/test/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'test/**/*.test.ts',
            // The console's decisions, and its components rendered to markup (react-dom/server): no browser needed.
            'apps/console/src/**/*.test.ts',
            'apps/console/src/**/*.test.tsx',
          ],
          exclude: [...configDefaults.exclude, ...MEASURED_ALONE, ...END_TO_END],
          // One worker per core. Vitest's own default keeps a core for itself (cores - 1), which on
          // a 2-core machine runs every file one after another, each mostly loading modules on one
          // core (docs/decisions.md, "Tests and tooling").
          maxWorkers: '100%',
          // A worker keeps the modules it loaded from one file to the next instead of loading the
          // server's graph again for each: a file must leave no state behind (it restores what it
          // stubs and closes what it starts), and one that needs fresh module state says so with
          // vi.resetModules().
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'measured alone',
          include: MEASURED_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'end to end', include: END_TO_END, maxWorkers: 1 },
      },
    ],
  },
});
