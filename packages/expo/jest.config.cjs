// Component tests, the way React Native libraries run theirs: the react-native jest preset with
// @testing-library/react-native. Logic tests run under vitest (packages/expo/test/**/*.test.ts).
const path = require('node:path');

const preset = require('@react-native/jest-preset');

module.exports = {
  preset: '@react-native/jest-preset',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/components/**/*.test.tsx'],
  // A cold transform cache on a busy machine can make a first test slow; no test depends on speed.
  testTimeout: 30_000,
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
