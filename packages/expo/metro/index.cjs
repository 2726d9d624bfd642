'use strict';
// Metro wiring for an Expo app that uses @ferry/expo from a Ferry checkout (for example
// examples/expo-app, which is installed on its own and links the SDK with a file: dependency).
// Plain JavaScript: metro.config.js is loaded by Node without a TypeScript loader.

const fs = require('node:fs');
const path = require('node:path');

/** The Ferry checkout this file lives in (packages/expo/metro → the repository root). */
const FERRY_ROOT = path.resolve(__dirname, '..', '..', '..');
/** The workspace packages the SDK's sources import (as TypeScript). */
const FERRY_PACKAGES = ['expo', 'contracts', 'certificate-flow'];

const realpath = (file) => {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
};

const isInside = (file, dir) => {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** A source file of a Ferry workspace package (not a dependency installed under it). */
function isFerrySource(file, ferryRoot) {
  if (!file) return false;
  const real = realpath(file);
  return isInside(real, path.join(ferryRoot, 'packages')) && !real.split(path.sep).includes('node_modules');
}

const isRelative = (name) => name.startsWith('./') || name.startsWith('../');

/**
 * Returns a copy of `config` that can bundle @ferry/expo from a Ferry checkout:
 * - watches the Ferry packages the SDK reads and the checkout's node_modules;
 * - resolves bare imports made by Ferry sources from the app first, so react, react-native,
 *   expo-updates and every other peer exist once in the bundle (the checkout has its own copies
 *   for tests);
 * - resolves the NodeNext `./file.js` imports of @ferry/contracts and @ferry/certificate-flow to
 *   their `.ts` sources, which Metro does not do by itself.
 */
function withFerry(config, options = {}) {
  const projectRoot = options.projectRoot ?? config.projectRoot;
  if (!projectRoot) throw new TypeError('withFerry needs config.projectRoot or options.projectRoot');
  const ferryRoot = options.ferryRoot ?? FERRY_ROOT;
  const resolver = config.resolver ?? {};
  const previous = resolver.resolveRequest;
  const appOrigin = path.join(projectRoot, 'package.json');

  const watchFolders = [
    ...FERRY_PACKAGES.map((name) => path.join(ferryRoot, 'packages', name)),
    path.join(ferryRoot, 'node_modules'),
  ].filter((dir) => fs.existsSync(dir));

  function resolveRequest(context, moduleName, platform) {
    const resolve = (ctx, name) => (previous ? previous(ctx, name, platform) : ctx.resolveRequest(ctx, name, platform));
    if (!isFerrySource(context.originModulePath, ferryRoot)) return resolve(context, moduleName);

    if (isRelative(moduleName) && moduleName.endsWith('.js')) {
      try {
        // Metro then tries the source extensions (.ts, .tsx, …) on the bare path.
        return resolve(context, moduleName.slice(0, -'.js'.length));
      } catch {
        return resolve(context, moduleName);
      }
    }
    if (!isRelative(moduleName) && !path.isAbsolute(moduleName)) {
      try {
        return resolve({ ...context, originModulePath: appOrigin }, moduleName);
      } catch {
        return resolve(context, moduleName);
      }
    }
    return resolve(context, moduleName);
  }

  return {
    ...config,
    watchFolders: [...new Set([...(config.watchFolders ?? []), ...watchFolders])],
    resolver: {
      ...resolver,
      nodeModulesPaths: [
        ...new Set([
          ...(resolver.nodeModulesPaths ?? []),
          path.join(projectRoot, 'node_modules'),
          path.join(ferryRoot, 'node_modules'),
        ]),
      ],
      resolveRequest,
    },
  };
}

module.exports = { FERRY_ROOT, isFerrySource, withFerry };
