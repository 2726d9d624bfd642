import { minimatch } from 'minimatch';
import { type ChangeContext, classifyChange } from './classify-change.js';
import { type CommitSnapshot, configGraph } from './config-graph.js';
import { nativePackageDirectories } from './fingerprint-inputs.js';
import { changedPaths, listTree, prefixInRepository, readAt, repositoryRoot, resolveCommit } from './git.js';
import { localDependencies } from './local-dependencies.js';

export interface NativeAffectedQuery {
  /** The app's directory (inside a git working tree). */
  projectRoot: string;
  base: string;
  /** Defaults to HEAD. */
  head?: string;
}

export interface NativeAffectedResult {
  /** May the native fingerprint of head differ from base's? Unknown counts as yes. */
  affected: boolean;
  /** Did anything the app is built from change (the JavaScript bundle included)? Unknown counts as yes. */
  appChanged: boolean;
  /** One line each; for affected, the first paths that may feed the fingerprint and why. */
  reasons: string[];
  base?: string;
  head?: string;
}

/** How many paths a verdict names; the rest are counted. */
const MAX_REASONS = 10;

/**
 * Answers whether a change between two commits may alter the app's native fingerprint, by
 * mapping the changed files onto what the fingerprint reads (docs/pipeline.md explains the
 * choice). It never answers not-affected when it cannot tell: an unknown base, a git failure or
 * an app config whose reach cannot be followed all count as affected.
 */
export async function checkNativeAffected(query: NativeAffectedQuery): Promise<NativeAffectedResult> {
  try {
    return await check(query);
  } catch (error) {
    return {
      affected: true,
      appChanged: true,
      reasons: [
        `the check failed, so it counts as affected: ${error instanceof Error ? error.message : String(error)}`,
      ],
    };
  }
}

async function check(query: NativeAffectedQuery): Promise<NativeAffectedResult> {
  const root = await repositoryRoot(query.projectRoot);
  const headRef = query.head ?? 'HEAD';
  const head = await resolveCommit(root, headRef);
  if (!head) return unknown(`head ${JSON.stringify(headRef)} is not a commit of this repository`);
  const base = await resolveCommit(root, query.base);
  if (!base) {
    return unknown(
      `base ${JSON.stringify(query.base)} is not a commit of this repository (a new branch, a typo, or a shallow clone: fetch with fetch-depth: 0)`,
    );
  }
  const changed = await changedPaths(root, base, head);
  if (changed.length === 0) {
    return { affected: false, appChanged: false, reasons: ['no file differs between base and head'], base, head };
  }
  const appPrefix = await prefixInRepository(query.projectRoot);
  const context = await changeContext(root, appPrefix, [base, head]);

  const native: string[] = [];
  let appChanged = false;
  for (const file of changed) {
    const verdict = classifyChange(file, context);
    if (verdict.kind !== 'outside') appChanged = true;
    if (verdict.kind === 'native') native.push(`${file}: ${verdict.reason}`);
  }
  if (native.length > 0) {
    const reasons = native.slice(0, MAX_REASONS);
    if (native.length > MAX_REASONS) reasons.push(`… and ${native.length - MAX_REASONS} more`);
    return { affected: true, appChanged: true, reasons, base, head };
  }
  const reason = appChanged
    ? `${changed.length} changed file(s), none of which can feed the native fingerprint (JavaScript-only change)`
    : `${changed.length} changed file(s), all outside the app`;
  return { affected: false, appChanged, reasons: [reason], base, head };
}

function unknown(reason: string): NativeAffectedResult {
  return { affected: true, appChanged: true, reasons: [`${reason}; counted as affected`] };
}

/** Everything about the app at both commits that the path rules need; a union, so either side's reach counts. */
async function changeContext(root: string, appPrefix: string, commits: string[]): Promise<ChangeContext> {
  const context = {
    appPrefix,
    configFiles: new Map<string, string>(),
    configDirectories: new Map<string, string>(),
    opaque: [] as string[],
    localDependencies: [] as string[],
    nativePackageDirectories: new Set<string>(),
    workspaceRoots: [] as string[],
  };
  for (const commit of commits) {
    const tree = new Set(await listTree(root, commit));
    const snapshot: CommitSnapshot = { tree, read: (file) => readAt(root, commit, file) };
    const graph = await configGraph(snapshot, appPrefix);
    for (const [file, by] of graph.files) context.configFiles.set(file, by);
    for (const [directory, by] of graph.directories) context.configDirectories.set(directory, by);
    context.opaque.push(...graph.opaque);

    const local = localDependencies(await snapshot.read(`${appPrefix}package.json`), appPrefix);
    context.localDependencies.push(...local.directories);
    for (const directory of nativePackageDirectories(tree)) context.nativePackageDirectories.add(directory);
    for (const ancestor of ancestorDirectories(appPrefix)) {
      const manifest = await snapshot.read(`${ancestor}package.json`);
      const member = manifest !== undefined && hasWorkspaceMember(manifest, ancestor, appPrefix);
      if (member && !context.workspaceRoots.includes(ancestor)) {
        context.workspaceRoots.push(ancestor);
      }
    }
  }
  return context;
}

function ancestorDirectories(appPrefix: string): string[] {
  if (appPrefix === '') return [];
  const parts = appPrefix.replace(/\/$/, '').split('/');
  return parts
    .slice(0, -1)
    .map((_, index) => `${parts.slice(0, index + 1).join('/')}/`)
    .concat('');
}

/**
 * Whether a package.json above the app makes the app one of its workspaces (npm and yarn
 * `workspaces`, as an array or `{ packages }`): then the workspace installs together, and a change
 * of any workspace package may reach the app. A manifest that cannot be read counts as yes.
 */
function hasWorkspaceMember(manifest: string, ancestor: string, appPrefix: string): boolean {
  let workspaces: unknown;
  try {
    workspaces = (JSON.parse(manifest) as { workspaces?: unknown }).workspaces;
  } catch {
    return true;
  }
  if (workspaces === undefined) return false;
  const patterns = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown }).packages;
  if (!Array.isArray(patterns)) return true;
  const appDirectory = appPrefix.slice(ancestor.length).replace(/\/$/, '');
  const clean = (pattern: string) => pattern.replace(/^\.\//, '').replace(/\/$/, '');
  return patterns.some((pattern) => typeof pattern === 'string' && minimatch(appDirectory, clean(pattern)));
}
