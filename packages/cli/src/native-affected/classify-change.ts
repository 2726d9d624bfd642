import path from 'node:path/posix';
import { isInstallFile, nativeReasonForPath } from './fingerprint-inputs.js';

/** What is known about the app at both commits, for deciding what one changed path means. */
export interface ChangeContext {
  /** The app's directory in the repository, with a trailing slash ('' at the root). */
  appPrefix: string;
  /** Files and directories the app config reads (union over base and head), mapped to who named them. */
  configFiles: ReadonlyMap<string, string>;
  configDirectories: ReadonlyMap<string, string>;
  /** Non-empty when the app config's reach could not be followed completely. */
  opaque: readonly string[];
  /** Directories or tarballs the app installs from the repository (file:, link:, relative paths). */
  localDependencies: readonly string[];
  /** Directories (trailing slash) holding a native package: a podspec, build.gradle, expo-module.config.json. */
  nativePackageDirectories: ReadonlySet<string>;
  /** Directories above the app (trailing slash, '' = root) whose workspaces include the app. */
  workspaceRoots: readonly string[];
}

export type ChangeClass =
  /** Outside the app and outside everything it installs: not part of the app. */
  | { kind: 'outside' }
  /** Part of the app, but it only reaches the JavaScript bundle. */
  | { kind: 'bundle' }
  /** May change the native fingerprint. */
  | { kind: 'native'; reason: string };

const isUnder = (file: string, directory: string): boolean =>
  directory === '' ||
  file === directory.replace(/\/$/, '') ||
  file.startsWith(directory.endsWith('/') ? directory : `${directory}/`);

/** Directories above the app, with a trailing slash ('' = the repository root). */
function ancestorsOf(appPrefix: string): string[] {
  const ancestors: string[] = [];
  let directory = path.dirname(appPrefix.replace(/\/$/, ''));
  while (appPrefix !== '') {
    ancestors.push(directory === '.' ? '' : `${directory}/`);
    if (directory === '.') break;
    directory = path.dirname(directory);
  }
  return ancestors;
}

export function classifyChange(file: string, context: ChangeContext): ChangeClass {
  const namedBy = context.configFiles.get(file);
  if (namedBy !== undefined) {
    return {
      kind: 'native',
      reason: namedBy === file ? 'the app config' : `read when the app config is evaluated (named in ${namedBy})`,
    };
  }
  for (const [directory, by] of context.configDirectories) {
    if (isUnder(file, directory)) return { kind: 'native', reason: `in ${directory}, which ${by} reads` };
  }
  for (const dependency of context.localDependencies) {
    if (isUnder(file, dependency)) {
      return { kind: 'native', reason: `in ${dependency}, which the app installs as a local package` };
    }
  }
  const inApp = isUnder(file, context.appPrefix);
  if (!inApp) return classifyOutside(file, context);

  if (context.opaque.length > 0) {
    return { kind: 'native', reason: `the app config's reach cannot be followed (${context.opaque[0]})` };
  }
  for (const directory of context.nativePackageDirectories) {
    if (directory !== context.appPrefix && isUnder(file, directory) && !isUnder(context.appPrefix, directory)) {
      return { kind: 'native', reason: `in the native package ${directory}` };
    }
  }
  const reason = nativeReasonForPath(file.slice(context.appPrefix.length));
  return reason === undefined ? { kind: 'bundle' } : { kind: 'native', reason };
}

/** A path outside the app counts only when it decides what the app installs. */
function classifyOutside(file: string, context: ChangeContext): ChangeClass {
  const ancestors = ancestorsOf(context.appPrefix);
  const directory = path.dirname(file) === '.' ? '' : `${path.dirname(file)}/`;
  if (ancestors.includes(directory) && isInstallFile(path.basename(file))) {
    return { kind: 'native', reason: `${path.basename(file)} above the app decides its installed packages` };
  }
  for (const ancestor of ancestors) {
    if (file.startsWith(`${ancestor}patches/`)) return { kind: 'native', reason: 'a dependency patch above the app' };
  }
  for (const root of context.workspaceRoots) {
    if (isUnder(file, root)) {
      return {
        kind: 'native',
        reason: `the app sits in the workspace at ${root || '/'}; any package of it may be installed`,
      };
    }
  }
  return { kind: 'outside' };
}
