/**
 * A small Expo app as committed files: the shape of examples/expo-app (release control file,
 * app.config.ts with config plugins and assets, JavaScript sources), without node_modules.
 */
export const RELEASE_FILE = `// Release control values, set by a person per release (plain JavaScript: the config loader only
// transpiles app.config.ts).
/** Marketing version shown in the stores. */
const APP_VERSION = '1.4.0';
/** Android versionCode: only ever goes up. */
const ANDROID_VERSION_CODE = 41;
/** iOS build number. */
const IOS_BUILD_NUMBER = "17";
const IS_PRERELEASE = false;

module.exports = { APP_VERSION, ANDROID_VERSION_CODE, IOS_BUILD_NUMBER, IS_PRERELEASE };
`;

/** The app's files; an override of null leaves a file out. */
export function appFiles(overrides: Record<string, string | null> = {}): Record<string, string> {
  const files: Record<string, string | null> = {
    'package.json': `${JSON.stringify(
      {
        name: 'fixture-app',
        private: true,
        main: 'index.ts',
        scripts: { start: 'expo start', test: 'jest' },
        dependencies: {
          expo: '~54.0.0',
          'expo-camera': '~17.0.8',
          react: '19.1.0',
          'react-native': '0.81.4',
        },
      },
      null,
      2,
    )}\n`,
    'package-lock.json': '{ "lockfileVersion": 3, "packages": {} }\n',
    'release.js': RELEASE_FILE,
    'release.d.ts': 'export declare const APP_VERSION: string;\n',
    'app.config.ts': `import type { ExpoConfig } from 'expo/config';
import { runtimeVersionsFor } from '@ferry/expo/config';
import { brand } from './config/brand';

const release = require('./release.js');
const runtimeVersions = runtimeVersionsFor({
  appVersion: release.APP_VERSION,
  iosBuildNumber: release.IOS_BUILD_NUMBER,
  androidVersionCode: release.ANDROID_VERSION_CODE,
  isPrerelease: release.IS_PRERELEASE,
});

export default (): ExpoConfig => ({
  name: brand.name,
  slug: 'fixture-app',
  scheme: 'app',
  version: release.APP_VERSION,
  icon: './assets/icon.png',
  ios: { buildNumber: String(release.IOS_BUILD_NUMBER), runtimeVersion: runtimeVersions.ios },
  android: { versionCode: release.ANDROID_VERSION_CODE, runtimeVersion: runtimeVersions.android },
  updates: { codeSigningCertificate: './certs/certificate.pem' },
  plugins: ['./plugins/with-ferry', ['./config/with-camera-permission', { text: 'Scan documents' }], 'expo-camera'],
});
`,
    'config/brand.ts': "export const brand = { name: 'Fixture' };\n",
    'config/with-camera-permission.js':
      'module.exports = (config, { text }) => ({ ...config, ios: { ...config.ios, infoPlist: { NSCameraUsageDescription: text } } });\n',
    'plugins/with-ferry.js': 'module.exports = (config) => config;\n',
    'certs/certificate.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    'assets/icon.png': 'png-icon-bytes',
    'assets/images/logo.png': 'png-logo-bytes',
    'index.ts':
      "import { registerRootComponent } from 'expo';\nimport App from './src/App';\nregisterRootComponent(App);\n",
    'src/App.tsx': "import { Home } from './screens/Home';\nexport default function App() { return <Home />; }\n",
    'src/screens/Home.tsx': 'export function Home() { return null; }\n',
    'src/modules/auth/session.ts': 'export const session = {};\n',
    'babel.config.js': "module.exports = { presets: ['babel-preset-expo'] };\n",
    'README.md': '# Fixture app\n',
    '.gitignore': 'node_modules/\n',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== null));
}
