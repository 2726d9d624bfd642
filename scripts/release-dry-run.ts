/**
 * `npm run release:dry-run` (CI runs it from .ci/run): checks what `npm run release` would publish,
 * without publishing anything (docs/releasing.md).
 *
 * 1. The release setup: every workspace under packages/ is publishable (not private, access
 *    public), and .changeset/config.json has all of them, and nothing else, in its one `fixed`
 *    group; every other workspace is private and ignored. scripts/local-registry.ts publishes the
 *    same packages.
 * 2. Versions: every publishable package has the same version, and each one's @ferry dependencies
 *    (dependencies, peer, optional and dev) are pinned to exactly that version.
 * 2b. Node versions: every package declares the root's `engines.node`, every dependency in the
 *    lockfile accepts all of it, and each line it admits has a tested version
 *    (scripts/node-engines.ts, the rule test/node-engines.test.ts also runs).
 * 3. Pending changesets: the version they would release is the one they ask for, computed by
 *    changesets' own release planner. (Changesets 2 bumped a package to major when a peer
 *    dependency of it got a minor bump, and the fixed group then took the whole release to the
 *    next major; changesets 3 bumps peer dependents by patch. This keeps checking it.)
 * 4. `npm run build` (skip with --no-build), then `npm pack --dry-run --json` in every package, with
 *    its lifecycle scripts as `npm publish` runs them (the server's prepack copies the web funnel).
 *    Each tarball must hold every file its exports, main, types and bin name (the `@ferry/source`
 *    condition is for this checkout and is not published), the files its bin scripts import,
 *    something for every entry of `files`, and no tests (*.test.*, *.spec.*, test/), no src/, no
 *    bench, no .tsbuildinfo, and no build output left behind by a deleted source file.
 *
 * Prints one row per package (version, files, size) and every problem found; exits 1 on any.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FERRY_PACKAGES } from './local-registry.js';
import { nodeEngineProblems, repositoryNodeEngines } from './node-engines.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;
/** The export condition that points this checkout's tools at the TypeScript sources. */
const SOURCE_CONDITION = '@ferry/source';
const BUMPS = ['none', 'patch', 'minor', 'major'] as const;
type Bump = (typeof BUMPS)[number];

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  workspaces?: string[];
  publishConfig?: { access?: string };
  files?: string[];
  exports?: unknown;
  main?: string;
  types?: string;
  module?: string;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Workspace {
  dir: string;
  pkg: PackageJson;
}

interface PackResult {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

const problems: string[] = [];
const problem = (message: string) => problems.push(message);
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
const rel = (file: string) => path.relative(ROOT, file) || '.';

/** The workspaces of the root package.json (globs of the form `dir/*` or plain folders). */
function workspaces(root: PackageJson): Workspace[] {
  const dirs = (root.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(ROOT, pattern)];
    const parent = path.join(ROOT, pattern.slice(0, -2));
    return fs.existsSync(parent)
      ? fs
          .readdirSync(parent, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(parent, entry.name))
      : [];
  });
  return dirs
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: readJson<PackageJson>(path.join(dir, 'package.json')) }));
}

function checkSetup(root: PackageJson, all: Workspace[], publishable: Workspace[]): void {
  if (root.private !== true) problem('the root package.json must be private');
  const names = publishable.map((w) => w.pkg.name);
  for (const { dir, pkg } of publishable) {
    if (pkg.private) problem(`${pkg.name} (${rel(dir)}) is private, but everything under packages/ is published`);
    if (pkg.publishConfig?.access !== 'public') problem(`${pkg.name}: publishConfig.access must be "public"`);
  }
  const others = all.filter((w) => !publishable.includes(w));
  for (const { dir, pkg } of others) {
    if (!pkg.private) problem(`${pkg.name} (${rel(dir)}) is not under packages/ and must be private`);
  }

  const configFile = path.join(ROOT, '.changeset', 'config.json');
  if (!fs.existsSync(configFile)) {
    problem('.changeset/config.json is missing');
    return;
  }
  const config = readJson<{ fixed?: string[][]; access?: string; baseBranch?: string; ignore?: string[] }>(configFile);
  const fixed = config.fixed ?? [];
  const group = new Set(fixed[0] ?? []);
  if (fixed.length !== 1) problem(`.changeset/config.json: expected one fixed group, found ${fixed.length}`);
  for (const name of names) {
    if (!group.has(name)) problem(`.changeset/config.json: ${name} is not in the fixed group`);
  }
  for (const name of group) {
    if (!names.includes(name))
      problem(`.changeset/config.json: the fixed group names ${name}, not a publishable package`);
  }
  if (config.access !== 'public') problem('.changeset/config.json: access must be "public"');
  for (const { pkg } of others) {
    if (!config.ignore?.includes(pkg.name)) problem(`.changeset/config.json: the private ${pkg.name} is not ignored`);
  }
  const registryNames = FERRY_PACKAGES.map((name) => `@ferry/${name}`);
  const missing = names.filter((name) => !registryNames.includes(name));
  const extra = registryNames.filter((name) => !names.includes(name));
  if (missing.length > 0 || extra.length > 0) {
    problem(
      `scripts/local-registry.ts (FERRY_PACKAGES) differs from packages/: missing ${missing.join(', ') || 'none'}, extra ${extra.join(', ') || 'none'}`,
    );
  }
}

/** The one version every publishable package has, or undefined (reported) when they differ. */
function checkVersions(publishable: Workspace[]): string | undefined {
  const versions = new Set(publishable.map((w) => w.pkg.version));
  if (versions.size !== 1) {
    problem(`versions differ: ${publishable.map((w) => `${w.pkg.name}@${w.pkg.version}`).join(', ')}`);
    return undefined;
  }
  const [version] = versions;
  if (!version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) problem(`"${version}" is not a semver version`);
  const names = new Set(publishable.map((w) => w.pkg.name));
  for (const { pkg } of publishable) {
    for (const field of DEPENDENCY_FIELDS) {
      for (const [name, range] of Object.entries(pkg[field] ?? {})) {
        if (names.has(name) && range !== version) {
          problem(`${pkg.name}: ${field} ${name} is "${range}", must be pinned to "${version}"`);
        }
      }
    }
  }
  return version;
}

interface ReleasePlan {
  changesets: Array<{ id: string; releases: Array<{ name: string; type: Bump }> }>;
  releases: Array<{ name: string; type: Bump; oldVersion: string; newVersion: string }>;
  preState: unknown;
}

function bumped(version: string, bump: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  return version;
}

/** The release the pending changesets would make; checks it is the one they ask for. */
async function checkPendingChangesets(version: string | undefined): Promise<string> {
  // The libraries `changeset status` uses, without its git comparison: it reads .changeset/*.md only.
  const fromCli = createRequire(createRequire(import.meta.url).resolve('@changesets/cli/package.json'));
  const load = async <T>(name: string): Promise<T> => (await import(pathToFileURL(fromCli.resolve(name)).href)) as T;
  let plan: ReleasePlan;
  try {
    const [{ getPackages }, { readConfig }, { readPreState }, { readChangesets }, { assembleReleasePlan }] =
      await Promise.all([
        load<{ getPackages(cwd: string): Promise<{ rootDir: string }> }>('@manypkg/get-packages'),
        load<{
          readConfig(
            cwd: string,
            packages: unknown,
          ): Promise<{ config: unknown; warnings: string[]; errors?: string[] | null }>;
        }>('@changesets/config'),
        load<{ readPreState(cwd: string): Promise<unknown> }>('@changesets/pre'),
        load<{ readChangesets(cwd: string): Promise<unknown[]> }>('@changesets/read'),
        load<{
          assembleReleasePlan(
            changesets: unknown[],
            packages: unknown,
            config: unknown,
            preState: unknown,
          ): ReleasePlan;
        }>('@changesets/assemble-release-plan'),
      ]);
    const packages = await getPackages(ROOT);
    const { config, errors } = await readConfig(packages.rootDir, packages);
    if (errors && errors.length > 0) throw new Error(`.changeset/config.json: ${errors.join('; ')}`);
    plan = assembleReleasePlan(await readChangesets(ROOT), packages, config, await readPreState(ROOT));
  } catch (error) {
    problem(`the pending changesets cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    return 'unknown';
  }
  if (plan.changesets.length === 0) return 'none';
  const releasing = plan.releases.filter((release) => release.type !== 'none');
  const next = new Set(releasing.map((release) => release.newVersion));
  const summary = `${plan.changesets.length} changeset(s), next version ${[...next].join(', ') || 'none'}`;
  if (next.size > 1) problem(`the pending changesets would release different versions: ${[...next].join(', ')}`);
  if (version === undefined || plan.preState !== undefined || version.includes('-')) return summary;
  const asked = plan.changesets
    .flatMap((changeset) => changeset.releases.map((release) => release.type))
    .reduce<Bump>((highest, type) => (BUMPS.indexOf(type) > BUMPS.indexOf(highest) ? type : highest), 'none');
  const expected = bumped(version, asked);
  const actual = [...next][0];
  if (actual !== undefined && actual !== expected) {
    problem(
      `the pending changesets ask for at most a ${asked} bump (${version} → ${expected}), but \`changeset version\` would release ${actual}. ` +
        'A package bumped further than its changesets ask takes the fixed group with it (docs/releasing.md, "Peer dependencies").',
    );
  }
  return summary;
}

/** Every path an `exports` value names, except under the source-only condition. */
function exportTargets(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) exportTargets(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (key !== SOURCE_CONDITION) exportTargets(item, out);
  }
  return out;
}

const normal = (file: string) => path.posix.normalize(file.replace(/^\.\//, ''));
const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** Whether a path named by package.json (possibly with `*`, as exports patterns allow) is in the tarball. */
function present(files: Set<string>, target: string): boolean {
  const wanted = normal(target);
  if (!wanted.includes('*')) return files.has(wanted);
  const pattern = new RegExp(`^${wanted.split('*').map(escapeRegExp).join('.+')}$`);
  return [...files].some((file) => pattern.test(file));
}

/** Relative modules a bin script imports (static, side-effect and dynamic imports with a literal). */
function relativeImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.map((match) => match[1]!);
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/(^|\/)[^/]+\.(test|spec)\.[^/]+$/, 'a test file'],
  [/(^|\/)(test|tests|__tests__)\//, 'a test folder'],
  [/^src\//, 'a source file (src/)'],
  [/(^|\/)bench\/|\.bench\.[^/]+$/, 'a benchmark'],
  [/\.tsbuildinfo$/, 'TypeScript build state'],
];

/** The source file a dist/ JavaScript or declaration file was compiled from, if it still exists. */
function hasSource(dir: string, file: string): boolean {
  const stem = file.replace(/^dist\//, 'src/').replace(/\.(d\.ts|js)$/, '');
  const candidates = file.endsWith('.d.ts') ? ['.ts', '.tsx', '.mts', '.d.ts'] : ['.ts', '.tsx', '.mts', '.js', '.mjs'];
  return candidates.some((extension) => fs.existsSync(path.join(dir, `${stem}${extension}`)));
}

function checkTarball({ dir, pkg }: Workspace, pack: PackResult): void {
  const files = new Set(pack.files.map((file) => normal(file.path)));
  const where = `${pkg.name} tarball`;
  const named: Array<[string, string]> = [
    ...exportTargets(pkg.exports).map((target): [string, string] => ['exports', target]),
    ...(['main', 'types', 'module'] as const).flatMap(
      (field): Array<[string, string]> => (pkg[field] ? [[field, pkg[field]]] : []),
    ),
  ];
  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
  for (const [command, file] of Object.entries(bins)) {
    named.push([`bin ${command}`, file]);
    const binPath = path.join(dir, file);
    if (!fs.existsSync(binPath)) continue;
    const source = fs.readFileSync(binPath, 'utf8');
    if (!source.startsWith('#!')) problem(`${pkg.name}: bin ${command} (${file}) has no #! line`);
    for (const specifier of relativeImports(source)) {
      named.push([`imported by ${file}`, path.posix.join(path.posix.dirname(normal(file)), specifier)]);
    }
  }
  for (const [why, target] of named) {
    if (!present(files, target)) problem(`${where} lacks ${normal(target)} (${why})`);
  }
  for (const entry of pkg.files ?? []) {
    if (entry.startsWith('!')) continue;
    const prefix = `${normal(entry).replace(/\/$/, '')}`;
    if (![...files].some((file) => file === prefix || file.startsWith(`${prefix}/`) || present(files, prefix))) {
      problem(`${where} has nothing for its files entry "${entry}"`);
    }
  }
  for (const file of files) {
    const forbidden = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (forbidden) problem(`${where} contains ${forbidden[1]}: ${file}`);
    else if (/^dist\/.+\.(d\.ts|js)$/.test(file) && !hasSource(dir, file)) {
      problem(`${where} contains ${file}, whose source is gone (stale build output: delete dist/ and rebuild)`);
    }
  }
}

function pack(workspace: Workspace): PackResult | undefined {
  // Lifecycle scripts run as in `npm publish`; their output goes to stderr, the JSON to stdout.
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=warn'], {
    cwd: workspace.dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    problem(`npm pack --dry-run failed in ${rel(workspace.dir)}:\n${result.stderr}`);
    return undefined;
  }
  const scriptOutput = result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^npm warn Unknown (user|env) config/.test(line));
  if (scriptOutput.length > 0) process.stderr.write(`${scriptOutput.join('\n')}\n`);
  try {
    const [packed] = JSON.parse(result.stdout) as PackResult[];
    if (!packed) throw new Error('empty result');
    return packed;
  } catch (error) {
    problem(`npm pack --dry-run --json in ${rel(workspace.dir)} printed no JSON (${String(error)}):\n${result.stdout}`);
    return undefined;
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

async function main(): Promise<void> {
  const build = !process.argv.includes('--no-build');
  const root = readJson<PackageJson>(path.join(ROOT, 'package.json'));
  const all = workspaces(root);
  // In dependency order where scripts/local-registry.ts knows the package, so the table reads the same.
  const order = (w: Workspace) => {
    const index = FERRY_PACKAGES.findIndex((name) => `@ferry/${name}` === w.pkg.name);
    return index === -1 ? FERRY_PACKAGES.length : index;
  };
  const publishable = all
    .filter((w) => path.relative(ROOT, w.dir).split(path.sep)[0] === 'packages')
    .sort((a, b) => order(a) - order(b) || a.pkg.name.localeCompare(b.pkg.name));

  checkSetup(root, all, publishable);
  const version = checkVersions(publishable);
  for (const message of nodeEngineProblems(repositoryNodeEngines(ROOT))) problem(message);
  const pending = await checkPendingChangesets(version);

  if (build) {
    console.log('release:dry-run: npm run build');
    const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) {
      problem(`npm run build failed (exit ${result.status})`);
    }
  }
  const rows = [['package', 'version', 'files', 'size', 'unpacked']];
  if (!problems.some((message) => message.startsWith('npm run build'))) {
    for (const workspace of publishable) {
      const packed = pack(workspace);
      if (!packed) continue;
      checkTarball(workspace, packed);
      rows.push([packed.name, packed.version, String(packed.entryCount), kib(packed.size), kib(packed.unpackedSize)]);
    }
  }

  console.log();
  if (rows.length > 1) printTable(rows);
  console.log(`\npending changesets: ${pending}`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} problem(s):`);
    for (const message of problems) console.log(`- ${message}`);
    console.log('\nrelease:dry-run: FAILED');
    process.exit(1);
  }
  console.log(`\nrelease:dry-run: OK, ${publishable.length} packages at ${version} would be published`);
}

await main();
