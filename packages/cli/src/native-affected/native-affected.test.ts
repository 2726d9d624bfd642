import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFiles } from '../../test/support/app-fixture.js';
import { type FileChanges, GitFixture } from '../../test/support/git-fixture.js';
import { checkNativeAffected } from './native-affected.js';

const packageJson = (edit: (manifest: Record<string, Record<string, string>>) => void): string => {
  const manifest = JSON.parse(appFiles()['package.json'] as string);
  edit(manifest);
  return `${JSON.stringify(manifest, null, 2)}\n`;
};

interface Row {
  change: string;
  files: FileChanges;
  affected: boolean;
  /** A fragment of the reason the verdict must state. */
  reason?: RegExp;
}

/** Spec, Publisher rule 5: what the fingerprint covers, as changes from the fixture app's base commit. */
const ROWS: Row[] = [
  {
    change: 'a JavaScript-only change',
    files: { 'src/screens/Home.tsx': 'export const Home = () => 1;\n' },
    affected: false,
  },
  { change: 'a new JavaScript file', files: { 'src/screens/Settings.tsx': 'export {};\n' }, affected: false },
  { change: 'an image the bundle uses', files: { 'assets/images/logo.png': 'other-bytes' }, affected: false },
  {
    change: 'a JS folder named modules below src',
    files: { 'src/modules/auth/session.ts': 'export {};\n' },
    affected: false,
  },
  { change: 'documentation', files: { 'README.md': '# Changed\n' }, affected: false },
  {
    change: "a release control file the app config does not read (Ferry's fingerprint preset hashes it)",
    files: { 'release.config.js': 'module.exports = { APP_VERSION: "9.9.9" };\n' },
    affected: true,
    reason: /release control file/,
  },
  {
    change: 'a JavaScript file named like a release control file, below the top level',
    files: { 'src/release.js': 'export const release = 1;\n' },
    affected: false,
  },
  {
    change: 'a native dependency added',
    files: {
      'package.json': packageJson((m) => {
        m.dependencies!['expo-location'] = '~19.0.7';
      }),
      'package-lock.json': '{ "lockfileVersion": 3, "packages": { "expo-location": {} } }\n',
    },
    affected: true,
    reason: /package\.json/,
  },
  {
    change: 'a native dependency removed',
    files: {
      'package.json': packageJson((m) => {
        delete m.dependencies!['expo-camera'];
      }),
    },
    affected: true,
  },
  {
    change: 'a native dependency changed in version (lockfile only)',
    files: { 'package-lock.json': '{ "lockfileVersion": 3, "packages": { "expo-camera": "17.0.9" } }\n' },
    affected: true,
    reason: /package-lock\.json/,
  },
  {
    change: 'a config-plugin file',
    files: { 'config/with-camera-permission.js': 'module.exports = (c) => c;\n' },
    affected: true,
    reason: /app config/,
  },
  {
    change: 'a local plugin',
    files: { 'plugins/with-ferry.js': 'module.exports = (c) => ({ ...c });\n' },
    affected: true,
  },
  {
    change: 'a local plugin added under plugins/ (not yet referenced)',
    files: { 'plugins/with-other.js': 'module.exports = (c) => c;\n' },
    affected: true,
  },
  {
    change: 'the release control file',
    files: { 'release.js': (appFiles()['release.js'] as string).replace('= 41;', '= 42;') },
    affected: true,
    reason: /release\.js/,
  },
  {
    change: 'an app-config value',
    files: { 'app.config.ts': (appFiles()['app.config.ts'] as string).replace("scheme: 'app'", "scheme: 'other'") },
    affected: true,
  },
  {
    change: 'a module the app config imports',
    files: { 'config/brand.ts': "export const brand = { name: 'Renamed' };\n" },
    affected: true,
  },
  { change: 'an asset the app config names', files: { 'assets/icon.png': 'new-icon' }, affected: true },
  { change: 'the code-signing certificate', files: { 'certs/certificate.pem': 'other\n' }, affected: true },
  {
    change: 'the autolinking configuration (react-native.config.js)',
    files: { 'react-native.config.js': 'module.exports = { dependencies: {} };\n' },
    affected: true,
  },
  {
    change: 'the autolinking configuration (package.json expo.autolinking)',
    files: {
      'package.json': packageJson((m) => {
        m.expo = { autolinking: { exclude: 'expo-camera' } } as unknown as Record<string, string>;
      }),
    },
    affected: true,
  },
  {
    change: 'the react-native version',
    files: {
      'package.json': packageJson((m) => {
        m.dependencies!['react-native'] = '0.81.5';
      }),
    },
    affected: true,
  },
  {
    change: 'package scripts',
    files: {
      'package.json': packageJson((m) => {
        m.scripts!.postinstall = 'patch-package';
      }),
    },
    affected: true,
  },
  { change: 'a dependency patch', files: { 'patches/expo-camera+17.0.8.patch': 'diff\n' }, affected: true },
  { change: 'an env file the config loads', files: { '.env': 'API=1\n' }, affected: true },
  { change: 'the native iOS project', files: { 'ios/App/AppDelegate.swift': 'import UIKit\n' }, affected: true },
  {
    change: 'a local native module',
    files: { 'modules/scanner/expo-module.config.json': '{}\n', 'modules/scanner/src/index.ts': 'export {};\n' },
    affected: true,
  },
  { change: 'a file of unknown kind', files: { 'keystore.jks': 'binary' }, affected: true },
  { change: 'eas.json', files: { 'eas.json': '{}\n' }, affected: true },
  { change: 'a file deleted from the config graph', files: { 'config/brand.ts': null }, affected: true },
];

describe('ferry native-affected: the change table', () => {
  let fixture: GitFixture;
  let base: string;

  beforeAll(async () => {
    fixture = await GitFixture.create(appFiles());
    base = await fixture.git('rev-parse', 'HEAD');
  });
  afterAll(() => fixture.cleanup());

  it.each(ROWS)('$change → affected: $affected', async ({ files, affected, reason }) => {
    await fixture.git('checkout', '--quiet', '--detach', base);
    const head = await fixture.commit('change', files);
    const result = await checkNativeAffected({ projectRoot: fixture.dir, base, head });
    expect(result.affected, result.reasons.join('\n')).toBe(affected);
    expect(result.appChanged).toBe(true);
    expect(result.reasons.length).toBeGreaterThan(0);
    if (reason) expect(result.reasons.join('\n')).toMatch(reason);
  });

  it('an unknown base is affected, and says why', async () => {
    const result = await checkNativeAffected({ projectRoot: fixture.dir, base: 'no-such-branch' });
    expect(result.affected).toBe(true);
    expect(result.appChanged).toBe(true);
    expect(result.reasons[0]).toMatch(/not a commit/);
  });

  it("GitHub's all-zero before SHA of a new branch is an unknown base", async () => {
    const result = await checkNativeAffected({ projectRoot: fixture.dir, base: '0'.repeat(40) });
    expect(result.affected).toBe(true);
  });

  it('a failing check (not a git repository) is affected', async () => {
    const result = await checkNativeAffected({ projectRoot: '/', base: 'HEAD' });
    expect(result.affected).toBe(true);
    expect(result.reasons[0]).toMatch(/failed/);
  });

  it('no difference at all is not affected and not an app change', async () => {
    const result = await checkNativeAffected({ projectRoot: fixture.dir, base, head: base });
    expect(result).toMatchObject({ affected: false, appChanged: false });
  });
});

describe('ferry native-affected: an app config whose reach cannot be followed', () => {
  it('a computed require makes every app change affected', async () => {
    const fixture = await GitFixture.create(
      appFiles({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the source text of a fixture file
        'app.config.ts': 'const env = process.env.APP_ENV;\nmodule.exports = require(`./config/${env}.js`);\n',
      }),
    );
    try {
      const base = await fixture.git('rev-parse', 'HEAD');
      const head = await fixture.commit('js', { 'src/screens/Home.tsx': 'export const Home = 2;\n' });
      const result = await checkNativeAffected({ projectRoot: fixture.dir, base, head });
      expect(result.affected).toBe(true);
      expect(result.reasons[0]).toMatch(/cannot be followed/);
    } finally {
      fixture.cleanup();
    }
  });

  it('a computed asset path takes its static directory whole', async () => {
    const fixture = await GitFixture.create(
      appFiles({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the source text of a fixture file
        'app.config.ts': 'const env = process.env.APP_ENV;\nexport default { icon: `./assets/icons/${env}.png` };\n',
        'assets/icons/production.png': 'a',
      }),
    );
    try {
      const base = await fixture.git('rev-parse', 'HEAD');
      const icon = await fixture.commit('icon', { 'assets/icons/production.png': 'b' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base, head: icon })).affected).toBe(true);
      const js = await fixture.commit('js', { 'src/screens/Home.tsx': 'export const Home = 3;\n' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base: icon, head: js })).affected).toBe(false);
    } finally {
      fixture.cleanup();
    }
  });

  it('path.join(__dirname, …) with literal segments names one file', async () => {
    const fixture = await GitFixture.create(
      appFiles({
        'app.config.js':
          "const path = require('node:path');\nmodule.exports = { plugins: [path.join(__dirname, 'tools', 'with-x.js')] };\n",
        'app.config.ts': null,
        'tools/with-x.js': 'module.exports = (c) => c;\n',
        'tools/unrelated.js': 'module.exports = 1;\n',
      }),
    );
    try {
      const base = await fixture.git('rev-parse', 'HEAD');
      const plugin = await fixture.commit('plugin', { 'tools/with-x.js': 'module.exports = (c) => ({ ...c });\n' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base, head: plugin })).affected).toBe(true);
      const other = await fixture.commit('other', { 'tools/unrelated.js': 'module.exports = 2;\n' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base: plugin, head: other })).affected).toBe(false);
    } finally {
      fixture.cleanup();
    }
  });

  it('fingerprint.config.js extraSources: the files and directories it names are affected, nothing else', async () => {
    const fixture = await GitFixture.create(
      appFiles({
        'fingerprint.config.js':
          "module.exports = { extraSources: [{ type: 'file', filePath: 'release.js' }, { type: 'dir', filePath: 'src/native-bridge' }] };\n",
        'src/native-bridge/bridge.ts': 'export {};\n',
      }),
    );
    try {
      const base = await fixture.git('rev-parse', 'HEAD');
      const bridge = await fixture.commit('bridge', { 'src/native-bridge/bridge.ts': 'export const x = 1;\n' });
      const result = await checkNativeAffected({ projectRoot: fixture.dir, base, head: bridge });
      expect(result.affected).toBe(true);
      expect(result.reasons[0]).toMatch(/fingerprint\.config\.js/);
      const js = await fixture.commit('js', { 'src/screens/Home.tsx': 'export const Home = 4;\n' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base: bridge, head: js })).affected).toBe(false);
      const config = await fixture.commit('config', { 'fingerprint.config.js': 'module.exports = {};\n' });
      expect((await checkNativeAffected({ projectRoot: fixture.dir, base: js, head: config })).affected).toBe(true);
    } finally {
      fixture.cleanup();
    }
  });

  it("fingerprint.config.js with Ferry's preset: the app's reach stays followable, JavaScript-only changes are not affected", async () => {
    const fixture = await GitFixture.create(
      appFiles({
        'fingerprint.config.js':
          "const { ferryFingerprintConfig } = require('@ferry/expo/fingerprint');\n" +
          "module.exports = ferryFingerprintConfig(__dirname, { extraSources: [{ type: 'dir', filePath: 'src/native-bridge', reasons: ['bridge'] }] });\n",
        'src/native-bridge/bridge.ts': 'export {};\n',
      }),
    );
    try {
      const base = await fixture.git('rev-parse', 'HEAD');
      const js = await fixture.commit('js', { 'src/screens/Home.tsx': 'export const Home = 5;\n' });
      const jsOnly = await checkNativeAffected({ projectRoot: fixture.dir, base, head: js });
      expect(jsOnly.affected).toBe(false);
      const bridge = await fixture.commit('bridge', { 'src/native-bridge/bridge.ts': 'export const y = 1;\n' });
      const named = await checkNativeAffected({ projectRoot: fixture.dir, base: js, head: bridge });
      expect(named.affected).toBe(true);
      expect(named.reasons[0]).toMatch(/fingerprint\.config\.js/);
    } finally {
      fixture.cleanup();
    }
  });
});

describe('ferry native-affected: an app inside a larger repository', () => {
  let fixture: GitFixture;
  let base: string;

  beforeAll(async () => {
    const app = Object.fromEntries(
      Object.entries(appFiles()).map(([file, content]) => [`apps/mobile/${file}`, content]),
    );
    const manifest = JSON.parse(app['apps/mobile/package.json'] as string);
    manifest.dependencies['@acme/scanner'] = 'file:../../packages/scanner';
    app['apps/mobile/package.json'] = JSON.stringify(manifest, null, 2);
    fixture = await GitFixture.create({
      ...app,
      'server/index.ts': 'export {};\n',
      'packages/scanner/index.js': 'module.exports = {};\n',
      'docs/guide.md': '# Guide\n',
    });
    base = await fixture.git('rev-parse', 'HEAD');
  });
  afterAll(() => fixture.cleanup());

  const run = async (files: FileChanges) => {
    await fixture.git('checkout', '--quiet', '--detach', base);
    const head = await fixture.commit('change', files);
    return checkNativeAffected({ projectRoot: fixture.path('apps/mobile'), base, head });
  };

  it('a change outside the app is neither affected nor an app change', async () => {
    expect(await run({ 'server/index.ts': 'export const x = 1;\n', 'docs/guide.md': '#\n' })).toMatchObject({
      affected: false,
      appChanged: false,
    });
  });

  it('a JavaScript-only change inside the app is an app change but not affected', async () => {
    expect(await run({ 'apps/mobile/src/App.tsx': 'export default 1;\n' })).toMatchObject({
      affected: false,
      appChanged: true,
    });
  });

  it('a local package the app installs (file:) is affected', async () => {
    const result = await run({ 'packages/scanner/index.js': 'module.exports = { v: 2 };\n' });
    expect(result.affected).toBe(true);
    expect(result.reasons[0]).toMatch(/local package/);
  });

  it('a lockfile at the repository root is affected', async () => {
    expect((await run({ 'package-lock.json': '{}\n' })).affected).toBe(true);
  });
});

describe('ferry native-affected: an app inside npm workspaces', () => {
  const monorepo = async (workspaces: string[]) => {
    const app = Object.fromEntries(
      Object.entries(appFiles()).map(([file, content]) => [`apps/mobile/${file}`, content]),
    );
    return GitFixture.create({
      ...app,
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces }),
      'packages/ui/index.js': 'module.exports = {};\n',
    });
  };

  it.each([
    { workspaces: ['apps/*', 'packages/*'], affected: true },
    { workspaces: ['packages/*'], affected: false },
  ])(
    'workspaces $workspaces: a change of another workspace package → affected: $affected',
    async ({ workspaces, affected }) => {
      const fixture = await monorepo(workspaces);
      try {
        const base = await fixture.git('rev-parse', 'HEAD');
        const head = await fixture.commit('ui', { 'packages/ui/index.js': 'module.exports = { v: 2 };\n' });
        const result = await checkNativeAffected({ projectRoot: fixture.path('apps/mobile'), base, head });
        expect(result.affected).toBe(affected);
        expect(result.appChanged).toBe(affected);
      } finally {
        fixture.cleanup();
      }
    },
  );
});
