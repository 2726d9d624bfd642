import path from 'node:path/posix';
import { RELEASE_CONTROL_CANDIDATES } from '../bump/locate-release-control-file.js';

/**
 * The path rules of the native-affected check: which files of an app can feed the native
 * fingerprint (spec, Publisher rule 5, and @expo/fingerprint's sourcers). The rules are
 * deliberately wider than the fingerprint: a false "affected" costs a publish or a gate run, a
 * false "not-affected" ships JavaScript to a binary it does not fit.
 */

/** Files that decide what gets installed: dependencies, their versions, scripts, autolinking settings. */
const INSTALL_FILES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lock',
  'bun.lockb',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
]);

/** Files @expo/fingerprint or the native build read by name, at any depth. */
const NATIVE_FILES = new Set([
  'app.json',
  'eas.json',
  '.easignore',
  '.gitignore',
  '.fingerprintignore',
  'react-native.config.js',
  'react-native.config.cjs',
  'react-native.config.mjs',
  'react-native.config.ts',
  'expo-module.config.json',
  'Podfile',
  'Podfile.lock',
  'Gemfile',
  'Gemfile.lock',
  'CMakeLists.txt',
  'gradle.properties',
  'google-services.json',
  'GoogleService-Info.plist',
]);

/** Name patterns read at config evaluation or by the fingerprint itself. */
const NATIVE_NAME_PATTERNS: Array<[RegExp, string]> = [
  [/^app\.config\.[cm]?[jt]s$/, 'the app config'],
  [/^fingerprint\.config\.[cm]?[jt]s$/, "the fingerprint's own configuration"],
  [/^\.env(\..*)?$/, 'an env file (the app config loads .env files)'],
];

/**
 * The release control file at the app's top level: Ferry's fingerprint preset (@ferry/expo/fingerprint)
 * hashes the first of these that exists, whether or not the app config reads it.
 */
const RELEASE_CONTROL_FILES = new Set(RELEASE_CONTROL_CANDIDATES);

/** Directories at the app's top level whose every file feeds the fingerprint. */
const NATIVE_DIRECTORIES: Array<[string, string]> = [
  ['ios', 'the native iOS project'],
  ['android', 'the native Android project'],
  ['patches', 'dependency patches'],
  ['cng-patches', 'continuous-native-generation patches'],
  ['plugins', 'local config plugins'],
  ['modules', 'local native modules (autolinked)'],
];

/** Native source and build files, wherever they are. */
const NATIVE_EXTENSIONS = new Set([
  '.swift',
  '.m',
  '.mm',
  '.h',
  '.hpp',
  '.c',
  '.cc',
  '.cpp',
  '.kt',
  '.kts',
  '.java',
  '.gradle',
  '.podspec',
  '.xcconfig',
  '.plist',
  '.entitlements',
  '.pbxproj',
  '.xcscheme',
  '.storyboard',
  '.xib',
  '.patch',
  '.diff',
  '.so',
  '.a',
  '.aar',
  '.jar',
  '.framework',
  '.xcframework',
]);

/**
 * Extensions that, outside every rule above and outside the app config's reach, only reach the
 * JavaScript bundle or nothing at all. Anything not listed counts as native (unknown = affected).
 */
const BUNDLE_EXTENSIONS = new Set([
  '.js',
  '.jsx',
  '.ts',
  '.tsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.json',
  '.md',
  '.mdx',
  '.txt',
  '.css',
  '.scss',
  '.snap',
  '.html',
  '.csv',
  '.yml',
  '.yaml',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.svg',
  '.bmp',
  '.ttf',
  '.otf',
  '.woff',
  '.woff2',
  '.mp3',
  '.wav',
  '.m4a',
  '.aac',
  '.mp4',
  '.mov',
  '.webm',
  '.lottie',
]);

/** Why a path may feed the fingerprint, or undefined when its name alone says it only reaches the bundle. */
export function nativeReasonForPath(appPath: string): string | undefined {
  const segments = appPath.split('/');
  const name = segments.at(-1) ?? appPath;
  if (INSTALL_FILES.has(name)) return `${name} decides the installed dependencies, their versions and scripts`;
  if (NATIVE_FILES.has(name)) return `${name} is read by the native build or the fingerprint`;
  for (const [pattern, what] of NATIVE_NAME_PATTERNS) if (pattern.test(name)) return `${name} is ${what}`;
  if (segments.length === 1 && RELEASE_CONTROL_FILES.has(name)) {
    return `${name} is the release control file (Ferry's fingerprint preset hashes it)`;
  }
  for (const [directory, what] of NATIVE_DIRECTORIES) {
    if (segments.length > 1 && segments[0] === directory) return `${directory}/ holds ${what}`;
  }
  if (segments.slice(0, -1).includes('node_modules')) return 'node_modules/ holds installed (committed) dependencies';
  const extension = path.extname(name).toLowerCase();
  if (NATIVE_EXTENSIONS.has(extension)) return `${extension} is a native source or build file`;
  if (!BUNDLE_EXTENSIONS.has(extension)) {
    return `${extension === '' ? 'a file without extension' : `${extension} files`} may feed the native build (unknown kind)`;
  }
  return undefined;
}

/** Files that decide the installed packages when they sit in a directory above the app (a workspace root). */
export function isInstallFile(name: string): boolean {
  return INSTALL_FILES.has(name);
}

/** Marker files of a native package: a directory holding one is autolinked or built natively as a whole. */
const NATIVE_PACKAGE_MARKERS = new Set([
  'expo-module.config.json',
  'react-native.config.js',
  'build.gradle',
  'build.gradle.kts',
]);

/** Directories (repository-relative, trailing slash) that hold a native package, found from a tree listing. */
export function nativePackageDirectories(treePaths: Iterable<string>): Set<string> {
  const directories = new Set<string>();
  for (const file of treePaths) {
    const name = path.basename(file);
    if (NATIVE_PACKAGE_MARKERS.has(name) || name.endsWith('.podspec')) {
      const directory = path.dirname(file);
      if (directory !== '.') directories.add(`${directory}/`);
    }
  }
  return directories;
}
