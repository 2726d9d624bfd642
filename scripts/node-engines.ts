/**
 * The Node versions Ferry supports, as one rule: the root package.json's `engines.node` is the
 * declared range, scripts/node-versions.json pins the exact version tested on each of its lines,
 * and `nodeEngineProblems` says what disagrees with them. test/node-engines.test.ts holds this
 * repository to it and `npm run release:dry-run` checks it before a release.
 *
 * "True" means npm never warns EBADENGINE for a Node in the declared range: every installed
 * dependency's own `engines.node` covers the whole range. "Tested" means every major the range
 * admits has a pinned version that .ci/run runs tests on, and no other.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

export interface NodeVersions {
  /** The version `npm ci`, `npm test` and the end-to-end scripts run on in .ci/run. */
  primary: string;
  /** The other supported lines, each tested with a subset in .ci/run. */
  others: string[];
}

/** A package and the Node range it declares (undefined: none). */
export interface NodeEngine {
  name: string;
  node: string | undefined;
}

export interface NodeEngineInput {
  /** The root package.json's engines.node. */
  declared: string | undefined;
  versions: NodeVersions;
  /** Every workspace: each declares exactly the root's range. */
  workspaces: NodeEngine[];
  /**
   * Every installed dependency (the lockfile), and UNDECLARED_NEEDS: each one's range must cover
   * the declared one.
   */
  dependencies: NodeEngine[];
}

/**
 * What a dependency needs but its `engines` does not say, so npm cannot warn. better-sqlite3 13
 * ships one prebuilt Node-API 10 binary (`NAPI_VERSION=10` in its binding.gyp); Node-API 10 came
 * with Node 22.14.0 and 23.6.0, and on Node 22.13 the binary crashes at load. Its engines says
 * ">=22".
 */
export const UNDECLARED_NEEDS: NodeEngine[] = [{ name: 'better-sqlite3 (Node-API 10)', node: '^22.14.0 || >=23.6.0' }];

/** Majors above this are "every future Node": a range reaching them is unbounded. */
const FUTURE_MAJOR = 100;

/** The majors a range admits, below FUTURE_MAJOR. */
export function majorsOf(range: string): number[] {
  return Array.from({ length: FUTURE_MAJOR }, (_, major) => major).filter((major) =>
    semver.intersects(range, `${major}.x`),
  );
}

export const pinnedVersions = (versions: NodeVersions): string[] => [versions.primary, ...versions.others];

export function nodeEngineProblems({ declared, versions, workspaces, dependencies }: NodeEngineInput): string[] {
  if (!declared) return ['the root package.json declares no engines.node'];
  if (!semver.validRange(declared)) return [`engines.node "${declared}" is not a semver range`];
  const problems: string[] = [];

  for (const { name, node } of workspaces) {
    if (node !== declared) problems.push(`${name}: engines.node is "${node ?? 'missing'}", must be "${declared}"`);
  }

  const pinned = pinnedVersions(versions);
  for (const version of pinned) {
    if (!semver.valid(version)) problems.push(`scripts/node-versions.json: "${version}" is not an exact version`);
    else if (!semver.satisfies(version, declared)) {
      problems.push(`scripts/node-versions.json: ${version} is outside engines.node "${declared}"`);
    }
  }
  if (semver.intersects(declared, `>=${FUTURE_MAJOR}`)) {
    problems.push(`engines.node "${declared}" admits every future Node major; name the tested lines`);
  }
  const valid = pinned.filter((version) => semver.valid(version));
  if (new Set(valid.map((version) => semver.major(version))).size !== valid.length) {
    problems.push('scripts/node-versions.json pins two versions of one major');
  }
  // A line counts as tested only through a pin inside the range.
  const tested = new Set(
    valid.filter((version) => semver.satisfies(version, declared)).map((version) => semver.major(version)),
  );
  for (const major of majorsOf(declared)) {
    if (!tested.has(major)) problems.push(`engines.node admits Node ${major}, but no version of it is tested`);
  }

  for (const { name, node } of dependencies) {
    if (node && semver.validRange(node) && !semver.subset(declared, node)) {
      problems.push(`${name} needs node "${node}", narrower than engines.node "${declared}"`);
    }
  }
  return problems;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

interface PackageJson {
  name: string;
  workspaces?: string[];
  engines?: { node?: string };
}

interface Lockfile {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

/** This repository's input to the rule: package.json files, the lockfile and node-versions.json. */
export function repositoryNodeEngines(root: string): NodeEngineInput {
  const pkg = readJson<PackageJson>(path.join(root, 'package.json'));
  const workspaceDirs = (pkg.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
    const parent = path.join(root, pattern.slice(0, -2));
    return fs.readdirSync(parent).map((entry) => path.join(parent, entry));
  });
  const workspaces = workspaceDirs
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => readJson<PackageJson>(path.join(dir, 'package.json')))
    .map((workspace) => ({ name: workspace.name, node: workspace.engines?.node }));

  const lock = readJson<Lockfile>(path.join(root, 'package-lock.json'));
  const dependencies = Object.entries(lock.packages)
    .filter(([location]) => location.includes('node_modules/'))
    .map(([location, entry]) => ({
      name: `${location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`,
      // Old packages wrote engines as an array, which npm ignores.
      node: Array.isArray(entry.engines) ? undefined : entry.engines?.node,
    }));

  return {
    declared: pkg.engines?.node,
    versions: readJson<NodeVersions>(path.join(root, 'scripts', 'node-versions.json')),
    workspaces,
    dependencies: [...dependencies, ...UNDECLARED_NEEDS],
  };
}
