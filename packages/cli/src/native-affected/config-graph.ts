import path from 'node:path/posix';
import { isFollowable, moduleReferences } from './config-references.js';

/** One commit as the graph sees it: its file list and a way to read a file's text. */
export interface CommitSnapshot {
  /** Repository-relative file paths. */
  tree: ReadonlySet<string>;
  read(file: string): Promise<string | undefined>;
}

/**
 * The files the app config can read when it is evaluated: the entry config, the modules it
 * imports or requires, the local plugins and assets it names, transitively. All of them feed the
 * fingerprint's evaluated app config (or are hashed on their own as config plugins and assets).
 */
export interface ConfigGraph {
  /** Repository-relative files, each mapped to the module that named it (the entry maps to itself). */
  files: Map<string, string>;
  /** Repository-relative directories (trailing slash) taken whole, mapped to the module that named them. */
  directories: Map<string, string>;
  /** Why the graph may be incomplete; non-empty means every change must count as affected. */
  opaque: string[];
}

/**
 * The entries, in the app's top-level directory: Expo's app config, and @expo/fingerprint's own
 * configuration, whose extraSources name files and directories that are hashed as they are.
 */
const ENTRY_PATTERN = /^(?:app\.(?:config\.[cm]?[jt]s|json)|fingerprint\.config\.[cm]?[jt]s)$/;
/** extraSources paths are plain relative paths ('src/native'), directories included. */
const NAMES_DIRECTORIES_BARE = /^fingerprint\.config\.[cm]?[jt]s$/;
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.json', '.d.ts'];
const INDEX_FILES = RESOLVE_EXTENSIONS.map((extension) => `/index${extension}`);
/** A bound on the work per commit; a bigger graph is reported as opaque rather than walked forever. */
const MAX_MODULES = 2000;

export async function configGraph(snapshot: CommitSnapshot, appPrefix: string): Promise<ConfigGraph> {
  const graph: ConfigGraph = { files: new Map(), directories: new Map(), opaque: [] };
  const directories = directoriesOf(snapshot.tree);
  const queue: string[] = [];
  const add = (file: string, namedBy: string) => {
    if (graph.files.has(file)) return;
    graph.files.set(file, namedBy);
    if (isFollowable(file)) queue.push(file);
  };
  for (const file of snapshot.tree) {
    if (path.dirname(file) === trimSlash(appPrefix) && ENTRY_PATTERN.test(path.basename(file))) add(file, file);
    if (appPrefix === '' && !file.includes('/') && ENTRY_PATTERN.test(file)) add(file, file);
  }
  let parsed = 0;
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (++parsed > MAX_MODULES) {
      graph.opaque.push(`the app config reaches more than ${MAX_MODULES} modules`);
      break;
    }
    const source = await snapshot.read(file);
    if (source === undefined) continue;
    const references = await moduleReferences(file, source);
    graph.opaque.push(...references.opaque);
    const bases = [path.dirname(file), trimSlash(appPrefix) || '.'];
    const bareDirectories = NAMES_DIRECTORIES_BARE.test(path.basename(file));
    for (const reference of references.paths) {
      for (const target of resolveReference(reference, bases, snapshot.tree, directories, bareDirectories)) {
        if (target.endsWith('/')) takeDirectory(target, file);
        else add(target, file);
      }
    }
    for (const prefix of references.prefixes) {
      for (const base of bases) {
        const directory = normalizeInside(path.join(base, path.dirname(`${prefix}x`)));
        if (directory === undefined) continue;
        if (directory === '' || directory === '.') {
          graph.opaque.push(`${file} builds paths at the top of the repository`);
        } else if (directories.has(`${directory}/`)) {
          takeDirectory(`${directory}/`, file);
        }
      }
    }
  }
  return graph;

  function takeDirectory(directory: string, namedBy: string): void {
    if (graph.directories.has(directory)) return;
    graph.directories.set(directory, namedBy);
    for (const file of snapshot.tree) if (file.startsWith(directory)) add(file, namedBy);
  }
}

function trimSlash(prefix: string): string {
  return prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
}

/** Every directory of a tree, with a trailing slash. */
function directoriesOf(tree: ReadonlySet<string>): Set<string> {
  const directories = new Set<string>();
  for (const file of tree) {
    let directory = path.dirname(file);
    while (directory !== '.' && !directories.has(`${directory}/`)) {
      directories.add(`${directory}/`);
      directory = path.dirname(directory);
    }
  }
  return directories;
}

/** A path joined and normalized, or undefined when it leaves the repository. */
function normalizeInside(joined: string): string | undefined {
  const normalized = path.normalize(joined);
  if (normalized === '..' || normalized.startsWith('../') || path.isAbsolute(normalized)) return undefined;
  return normalized === '.' ? '' : normalized.replace(/\/$/, '');
}

/**
 * The repository files (or directories, with a trailing slash) a string may name. Explicitly
 * relative strings ('./x', '../x') may name a directory; bare strings only a file (unless
 * `bareDirectories`), so that a config value such as scheme: 'app' does not pull the whole app/
 * folder in.
 */
export function resolveReference(
  reference: string,
  bases: string[],
  tree: ReadonlySet<string>,
  directories: ReadonlySet<string>,
  bareDirectories = false,
): string[] {
  if (reference === '' || reference.length > 500 || /[\n\0]|:\/\//.test(reference)) return [];
  if (reference.startsWith('/') || reference.startsWith('@') || reference.startsWith('#')) return [];
  const relative = reference.startsWith('./') || reference.startsWith('../') || reference === '.';
  if (!relative && !bareDirectories && !/[/.]/.test(reference)) return [];
  const found = new Set<string>();
  for (const base of bases) {
    const target = normalizeInside(path.join(base, reference));
    if (target === undefined || target === '') continue;
    if (tree.has(target)) found.add(target);
    for (const extension of RESOLVE_EXTENSIONS) if (tree.has(target + extension)) found.add(target + extension);
    if ((relative || bareDirectories) && directories.has(`${target}/`)) {
      for (const index of INDEX_FILES) if (tree.has(target + index)) found.add(target + index);
      found.add(`${target}/`);
    }
  }
  return [...found];
}
