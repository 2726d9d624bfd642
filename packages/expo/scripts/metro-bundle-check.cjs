'use strict';
// npm run check:metro -w @ferry/expo
// Bundles a throwaway React Native app that imports @ferry/expo and @ferry/expo/certificates with
// Metro (the checkout's own, no Expo install) through withFerry(), for iOS and Android, and checks
// that the SDK's code is in each bundle. expo-updates is a stub: only resolution and transforms are
// under test here; `npm run e2e:expo` builds the real example app with the real package.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const checkout = path.resolve(__dirname, '..', '..', '..');
const fromCheckout = (name) => require.resolve(name, { paths: [path.join(checkout, 'packages', 'expo')] });
const Metro = require(fromCheckout('metro'));

const MARKERS = {
  'update banner': 'ferry-notify-banner',
  'certificate funnel (via @ferry/certificate-flow)': 'Secure entry unavailable',
  'provider list (via @ferry/contracts)': 'Bank certificate E',
};

function scaffold(dir) {
  const link = (name, target) => {
    fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, 'node_modules', name));
  };
  link('@ferry/expo', path.join(checkout, 'packages', 'expo'));
  for (const name of ['react', 'react-native', '@babel', '@react-native']) {
    link(name, path.join(checkout, 'node_modules', name));
  }
  fs.mkdirSync(path.join(dir, 'node_modules', 'expo-updates'));
  fs.writeFileSync(
    path.join(dir, 'node_modules', 'expo-updates', 'package.json'),
    '{"name":"expo-updates","main":"index.js"}',
  );
  fs.writeFileSync(
    path.join(dir, 'node_modules', 'expo-updates', 'index.js'),
    'exports.isEnabled = false;\nexports.useUpdates = () => ({ currentlyRunning: {}, isUpdatePending: false });\nexports.reloadAsync = async () => {};\n',
  );
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"ferry-metro-check","private":true}');
  fs.writeFileSync(
    path.join(dir, 'babel.config.js'),
    // babel-preset-expo includes export-namespace-from (zod needs it); the bare RN preset does not.
    `module.exports = { presets: ['module:@react-native/babel-preset'], plugins: [${JSON.stringify(fromCheckout('@babel/plugin-transform-export-namespace-from'))}] };\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'index.js'),
    [
      "import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';",
      "import { CERTIFICATE_PROVIDERS, useCertificateFunnel } from '@ferry/expo/certificates';",
      "import { AppRegistry } from 'react-native';",
      'function App() { const update = useOtaUpdatePolicy(); return OtaUpdateBanner({ update }); }',
      'globalThis.__ferry = [useCertificateFunnel, CERTIFICATE_PROVIDERS];',
      "AppRegistry.registerComponent('main', () => App);",
      '',
    ].join('\n'),
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-metro-check-'));
  try {
    scaffold(dir);
    const { withFerry } = require(path.join(dir, 'node_modules', '@ferry', 'expo', 'metro', 'index.cjs'));
    const config = await Metro.loadConfig(
      { cwd: dir, config: undefined },
      withFerry({
        projectRoot: dir,
        resolver: {
          resolverMainFields: ['react-native', 'browser', 'main'],
          platforms: ['ios', 'android'],
          sourceExts: ['ts', 'tsx', 'js', 'jsx', 'json', 'cjs', 'mjs'],
          unstable_conditionNames: ['react-native', 'require', 'default'],
        },
        transformer: {
          babelTransformerPath: fromCheckout('metro-babel-transformer'),
          assetRegistryPath: 'react-native/Libraries/Image/AssetRegistry',
        },
        serializer: { getPolyfills: () => require(fromCheckout('@react-native/js-polyfills'))() },
        reporter: { update() {} },
      }),
    );
    const rows = [];
    for (const platform of ['ios', 'android']) {
      const out = path.join(dir, `bundle.${platform}.js`);
      const started = process.hrtime.bigint();
      await Metro.runBuild(config, { entry: './index.js', platform, dev: false, minify: false, out });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const bundle = fs.readFileSync(out, 'utf8');
      const missing = Object.entries(MARKERS)
        .filter(([, marker]) => !bundle.includes(marker))
        .map(([what]) => what);
      rows.push({ platform, bytes: bundle.length, seconds: seconds.toFixed(1), missing: missing.join(', ') || '-' });
    }
    console.table(rows);
    if (rows.some((row) => row.missing !== '-')) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`metro check failed: ${error.message}`);
  process.exitCode = 1;
});
