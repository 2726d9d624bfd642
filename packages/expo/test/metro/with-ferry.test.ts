import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFerry } from '../../metro/index.cjs';

// A throwaway Ferry checkout and app on disk (withFerry reads real paths), plus a fake default
// resolver that knows which module names resolve from which directories, as Metro's would.
let root: string;
let ferry: string;
let app: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-metro-'));
  ferry = path.join(root, 'ferry');
  app = path.join(ferry, 'examples', 'app');
  for (const dir of [
    'packages/expo/src',
    'packages/contracts/src/ota',
    'node_modules/zod',
    'examples/app/node_modules',
  ]) {
    fs.mkdirSync(path.join(ferry, dir), { recursive: true });
  }
  fs.writeFileSync(path.join(ferry, 'packages/expo/src/index.ts'), '');
  fs.writeFileSync(path.join(ferry, 'packages/contracts/src/index.ts'), '');
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

type Context = { originModulePath: string; resolveRequest: DefaultResolver };
type DefaultResolver = (context: Context, name: string, platform: string | null) => { type: string; filePath: string };

/** name → directory it is installed under (searched upwards from the origin, like node_modules). */
function fakeResolver(installed: Record<string, string[]>, files: string[] = []): DefaultResolver {
  return (context, name) => {
    if (name.startsWith('.')) {
      const target = path.resolve(path.dirname(context.originModulePath), name);
      if (files.includes(target)) return { type: 'sourceFile', filePath: target };
      throw new Error(`cannot resolve ${name}`);
    }
    for (let dir = path.dirname(context.originModulePath); ; dir = path.dirname(dir)) {
      if (installed[name]?.includes(dir)) return { type: 'sourceFile', filePath: path.join(dir, 'node_modules', name) };
      if (dir === path.dirname(dir)) throw new Error(`cannot resolve ${name}`);
    }
  };
}

function resolverFor(defaultResolver: DefaultResolver) {
  const config = withFerry({ projectRoot: app, resolver: {} }, { ferryRoot: ferry });
  const resolveRequest = config.resolver.resolveRequest;
  return (origin: string, name: string) =>
    resolveRequest({ originModulePath: origin, resolveRequest: defaultResolver }, name, 'ios').filePath as string;
}

describe('withFerry (Metro config for apps that link @ferry/expo from a checkout)', () => {
  it('resolves peers imported by the SDK from the app, never from the checkout’s own copies', () => {
    const resolve = resolverFor(
      fakeResolver({ react: [app, ferry], 'react-native': [app, ferry], 'expo-updates': [app] }),
    );
    const sdkFile = path.join(ferry, 'packages/expo/src/index.ts');
    expect(resolve(sdkFile, 'react')).toBe(path.join(app, 'node_modules/react'));
    expect(resolve(sdkFile, 'react-native')).toBe(path.join(app, 'node_modules/react-native'));
    expect(resolve(sdkFile, 'expo-updates')).toBe(path.join(app, 'node_modules/expo-updates'));
  });

  it('falls back to the checkout for dependencies the app does not have (zod)', () => {
    const resolve = resolverFor(fakeResolver({ zod: [ferry] }));
    expect(resolve(path.join(ferry, 'packages/contracts/src/index.ts'), 'zod')).toBe(
      path.join(ferry, 'node_modules/zod'),
    );
  });

  it('maps NodeNext ./file.js imports of workspace sources to the TypeScript file', () => {
    const target = path.join(ferry, 'packages/contracts/src/ota/channel');
    const resolve = resolverFor(fakeResolver({}, [target]));
    expect(resolve(path.join(ferry, 'packages/contracts/src/index.ts'), './ota/channel.js')).toBe(target);
  });

  it('keeps a real .js file when one exists', () => {
    const target = path.join(ferry, 'packages/expo/src/legacy.js');
    const resolve = resolverFor(fakeResolver({}, [target]));
    expect(resolve(path.join(ferry, 'packages/expo/src/index.ts'), './legacy.js')).toBe(target);
  });

  it('leaves the app’s own imports and node_modules alone', () => {
    const resolve = resolverFor(fakeResolver({ react: [app, ferry] }));
    expect(resolve(path.join(app, 'app/_layout.tsx'), 'react')).toBe(path.join(app, 'node_modules/react'));
    expect(() => resolve(path.join(app, 'app/_layout.tsx'), './x.js')).toThrow(/cannot resolve/);
  });

  it('watches the SDK, the packages it imports and the checkout’s node_modules, keeping existing settings', () => {
    const config = withFerry(
      {
        projectRoot: app,
        watchFolders: ['/elsewhere'],
        resolver: { nodeModulesPaths: ['/x/node_modules'], sourceExts: ['ts'] },
      },
      { ferryRoot: ferry },
    );
    expect(config.watchFolders).toEqual([
      '/elsewhere',
      path.join(ferry, 'packages/expo'),
      path.join(ferry, 'packages/contracts'),
      path.join(ferry, 'node_modules'),
    ]);
    expect(config.resolver.nodeModulesPaths).toEqual([
      '/x/node_modules',
      path.join(app, 'node_modules'),
      path.join(ferry, 'node_modules'),
    ]);
    expect(config.resolver.sourceExts).toEqual(['ts']);
  });

  it('chains an existing resolveRequest instead of replacing it', () => {
    const calls: string[] = [];
    const config = withFerry(
      {
        projectRoot: app,
        resolver: {
          resolveRequest: (_context: unknown, name: string) => {
            calls.push(name);
            return { type: 'empty' };
          },
        },
      },
      { ferryRoot: ferry },
    );
    config.resolver.resolveRequest({ originModulePath: path.join(app, 'index.js') }, 'anything', 'android');
    expect(calls).toEqual(['anything']);
  });

  it('needs a project root', () => {
    expect(() => withFerry({ resolver: {} }, { ferryRoot: ferry })).toThrow(/projectRoot/);
  });
});
