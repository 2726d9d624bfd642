import { defineConfig } from 'vitest/config';

// The unit tests of the pure decision modules that `npm run mutate` (stryker.config.mjs) mutates,
// and nothing else: no PostgreSQL, HTTP or browser suites, so each mutant runs in milliseconds.
// Workspace packages resolve to their TypeScript sources, as in vitest.config.ts.
const SOURCE = '@ferry/source';

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
  test: {
    include: [
      'packages/contracts/src/ota/native-change.test.ts',
      'packages/cli/src/gate/gate-verdict.test.ts',
      'packages/cli/src/bump/bump-arithmetic.test.ts',
      'packages/certificate-flow/test/funnel/funnel-reducer.test.ts',
      'packages/certificate-flow/test/funnel/funnel-resume.test.ts',
      'packages/server/src/certificates/authentication-view.test.ts',
      'packages/server/src/ota/manifest/manifest-request.test.ts',
      'packages/server/src/ota/manifest/manifest-headers.test.ts',
      'packages/server/src/ota/manifest/manifest-decision.test.ts',
      'packages/server/src/vendors/vendor-registry.test.ts',
    ],
  },
});
