// Component tests, the way React Native libraries run theirs: the react-native jest preset with
// @testing-library/react-native. Logic tests run under vitest (packages/expo/test/**/*.test.ts).
const path = require('node:path');

const preset = require('@react-native/jest-preset');
const { HANG_GUARD_MS } = require('../../test/support/hang-guard.cjs');

module.exports = {
  preset: '@react-native/jest-preset',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/components/**/*.test.tsx'],
  // A hang guard, not a speed requirement (test/support/hang-guard.cjs): a cold transform cache on a
  // busy machine makes a first test slow, never failing.
  testTimeout: HANG_GUARD_MS,
  transform: {
    ...preset.transform,
    '^.+\\.(js|ts|tsx)$': ['babel-jest', { configFile: path.join(__dirname, 'babel.config.cjs') }],
  },
  // @noble/ciphers and @scure/base (the funnel's pure-JS AES) ship ESM only, like react-native itself.
  transformIgnorePatterns: ['node_modules/(?!((jest-)?react-native|@react-native(-community)?|@noble|@scure)/)'],
  // Workspace packages resolve to their TypeScript sources (the `@ferry/source` export condition).
  testEnvironmentOptions: { customExportConditions: ['@ferry/source', 'require', 'react-native'] },
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    // Workspace packages (@ferry/contracts, @ferry/certificate-flow) use NodeNext `.js` suffixes.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};
