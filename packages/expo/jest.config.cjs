// Component tests, the way React Native libraries run theirs: the react-native jest preset with
// @testing-library/react-native. Logic tests run under vitest (packages/expo/test/**/*.test.ts).
const path = require('node:path');

const preset = require('@react-native/jest-preset');

module.exports = {
  preset: '@react-native/jest-preset',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/components/**/*.test.tsx'],
  transform: {
    ...preset.transform,
    '^.+\\.(js|ts|tsx)$': ['babel-jest', { configFile: path.join(__dirname, 'babel.config.cjs') }],
  },
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    // Workspace packages (@ferry/contracts, @ferry/certificate-flow) use NodeNext `.js` suffixes.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};
