// Mutation testing of the pure decision modules (`npm run mutate`; not part of `npm test`).
// Each mutant runs only the unit tests of vitest.mutate.config.ts; the command fails below 90 %.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: [
    'packages/contracts/src/ota/native-change.ts',
    'packages/cli/src/gate/gate-verdict.ts',
    'packages/cli/src/bump/bump-arithmetic.ts',
    'packages/certificate-flow/src/funnel/funnel-reducer.ts',
    'packages/server/src/certificates/authentication-view.ts',
    'packages/server/src/ota/manifest/manifest-request.ts',
    'packages/server/src/ota/manifest/manifest-headers.ts',
    'packages/server/src/ota/manifest/manifest-decision.ts',
    'packages/server/src/ota/manifest/manifest-answer.ts',
    'packages/server/src/vendors/vendor-registry.ts',
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level code: the header table, the answers of no release) run every test
  // file, and one that breaks a module's loading completes no test, which this runner reports as a
  // survivor. Module-level code runs in every test that imports it, so ordinary tests cover it.
  ignoreStatic: true,
  concurrency: 1,
  // The sandbox lives under the ignored report directory, so a run leaves nothing for git to see.
  tempDirName: 'reports/mutation/.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
};
