/**
 * Helpers for tests that install Ferry the way a team does: from a registry, into folders outside
 * this checkout. Child processes get a clean environment (no npm_* variables of an outer `npm run`),
 * run in their own process group so a hang can be ended with everything it started, and are all
 * ended by `killAll()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HANG_GUARD_MS } from '../../support/hang-guard.cjs';

export interface Run {
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Copy the output to this process's stdout/stderr as it comes. */
  echo?: boolean;
  /** Ends the process group after this long (bounds a hang; not a wait). */
  timeoutMs?: number;
}

const live = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals, evenIfLeaderExited = false): void {
  if (child.pid === undefined) return;
  if (!evenIfLeaderExited && (child.exitCode !== null || child.signalCode !== null)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Ends every child process group started through this module that is still running. */
export function killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const child of live) killGroup(child, signal);
}

/**
 * The environment for a child: this process's, without what an outer `npm run` adds (npm_config_*,
 * npm_package_*, npm_lifecycle_*, INIT_CWD), which would point npm at this checkout. node-gyp
 * (better-sqlite3's install step) reads the headers of the Node running this, which sit beside it.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  // npm_config_yes=false: `npx <bin>` never fetches a package of that name when the bin is missing.
  return {
    ...env,
    npm_config_nodedir: path.resolve(process.execPath, '../..'),
    npm_config_update_notifier: 'false',
    npm_config_yes: 'false',
    ...extra,
  };
}

/** Spawns a long-running process in its own process group; `stop()` ends the group. */
export function start(
  command: string,
  args: string[],
  options: Omit<RunOptions, 'timeoutMs'>,
): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
} {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  let out = '';
  const collect = (chunk: Buffer, to: NodeJS.WriteStream) => {
    out += chunk;
    if (options.echo) to.write(chunk);
  };
  child.stdout?.on('data', (chunk: Buffer) => collect(chunk, process.stdout));
  child.stderr?.on('data', (chunk: Buffer) => collect(chunk, process.stderr));
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      live.delete(child);
      resolve(code);
    });
  });
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (!live.has(child)) {
        killGroup(child, 'SIGKILL', true);
        return;
      }
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      // The group may outlive its leader (npx → sh → node): make sure nothing of it is left.
      killGroup(child, 'SIGKILL', true);
    },
  };
}

/** Runs a command to its end and collects its output. */
export function run(command: string, args: string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (options.echo) process.stderr.write(chunk);
    });
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup(child, 'SIGKILL');
          }, options.timeoutMs);
    child.on('error', (error) => {
      live.delete(child);
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      live.delete(child);
      clearTimeout(timer);
      if (timedOut) {
        reject(
          new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms\n${stdout}\n${stderr}`),
        );
        return;
      }
      resolve({ code: code ?? 1, signal, stdout, stderr });
    });
  });
}

/** Runs a command and throws, with its output, unless it exits 0. */
export async function runOk(command: string, args: string[], options: RunOptions): Promise<Run> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.code}\n--- stdout\n${result.stdout.slice(-8000)}\n--- stderr\n${result.stderr.slice(-8000)}`,
    );
  }
  return result;
}

export { freePort } from '../../../scripts/free-port.js';

/**
 * Polls `url` until it answers 2xx: readiness as the server itself reports it. Rejects as soon as
 * `exited` settles (the process died) or after `timeoutMs`, the hang guard (test/support/hang-guard.cjs):
 * a bound on a hang, not an expected wait.
 */
export async function waitUntilReady(
  url: string,
  exited: Promise<unknown>,
  describe: () => string,
  timeoutMs = HANG_GUARD_MS,
): Promise<void> {
  let done = false;
  const died = exited.then(() => {
    throw new Error(`the process exited before ${url} answered:\n${describe()}`);
  });
  const poll = (async () => {
    const deadline = Date.now() + timeoutMs;
    while (!done) {
      try {
        // A stalled attempt is abandoned and retried; it never fails the wait.
        const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms:\n${describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    await Promise.race([poll, died]);
  } finally {
    done = true;
    died.catch(() => {});
  }
}

/** An empty npm project whose @ferry scope (and nothing else) comes from `registryUrl`. */
export function scopedProject(dir: string, registryUrl: string, manifest: Record<string, unknown> = {}): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: path
          .basename(dir)
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-'),
        version: '1.0.0',
        private: true,
        ...manifest,
      },
      null,
      2,
    )}\n`,
  );
  writeScopeNpmrc(dir, registryUrl);
}

/** Appends `@ferry:registry=<url>` to the folder's .npmrc (creating it). */
export function writeScopeNpmrc(dir: string, registryUrl: string): void {
  fs.appendFileSync(path.join(dir, '.npmrc'), `@ferry:registry=${registryUrl}\n`);
}

export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
}

/** Every package under `<root>/node_modules`, nested node_modules included (symlinks are not followed). */
export function installedPackages(root: string): InstalledPackage[] {
  const found: InstalledPackage[] = [];
  const visit = (nodeModules: string) => {
    if (!fs.existsSync(nodeModules)) return;
    for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(nodeModules, entry.name);
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        for (const scoped of fs.readdirSync(full, { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(path.join(full, scoped.name));
        }
      } else if (entry.isDirectory()) {
        visitPackage(full);
      }
    }
  };
  const visitPackage = (dir: string) => {
    const manifestFile = path.join(dir, 'package.json');
    if (fs.existsSync(manifestFile)) {
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { name?: string; version?: string };
      const name = manifest.name ?? path.relative(path.dirname(path.dirname(dir)), dir);
      found.push({ name, version: manifest.version ?? '?', dir });
    }
    visit(path.join(dir, 'node_modules'));
  };
  visit(path.join(root, 'node_modules'));
  return found;
}

/** Resolves `name` as Node does from inside `fromDir`, without going above `root`. */
function resolvePackageDir(name: string, fromDir: string, root: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.resolve(dir) === path.resolve(root)) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The installed dependency closure of the named packages in the project at `root` (themselves included). */
export function dependencyClosure(root: string, names: string | string[]): InstalledPackage[] {
  const queue = (Array.isArray(names) ? names : [names]).map((name) => {
    const start = resolvePackageDir(name, root, root);
    if (!start) throw new Error(`${name} is not installed in ${root}`);
    return start;
  });
  const seen = new Map<string, InstalledPackage>();
  while (queue.length > 0) {
    const dir = queue.shift()!;
    const real = fs.realpathSync(dir);
    if (seen.has(real)) continue;
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    seen.set(real, { name: manifest.name, version: manifest.version, dir: real });
    const names = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      // Peers count when they are installed (npm installs non-optional ones).
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    for (const dependency of names) {
      const resolved = resolvePackageDir(dependency, dir, root);
      if (resolved) queue.push(resolved);
    }
  }
  return [...seen.values()];
}

export interface DiskUsage {
  /** Allocated bytes, as `du` counts them (each inode once). */
  bytes: number;
  /** Sum of file sizes (`du --apparent-size`). */
  apparentBytes: number;
  files: number;
}

/**
 * `du` over several paths at once, each inode counted once. With `skipNestedNodeModules`, a
 * package's own node_modules folder is left out (its packages are listed separately).
 */
export function diskUsage(paths: string[], options: { skipNestedNodeModules?: boolean } = {}): DiskUsage {
  const inodes = new Set<string>();
  const usage: DiskUsage = { bytes: 0, apparentBytes: 0, files: 0 };
  const walk = (file: string, top: boolean) => {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    const key = `${stat.dev}:${stat.ino}`;
    if (inodes.has(key)) return;
    inodes.add(key);
    usage.bytes += stat.blocks * 512;
    if (stat.isDirectory()) {
      if (!top && options.skipNestedNodeModules && path.basename(file) === 'node_modules') {
        usage.bytes -= stat.blocks * 512;
        return;
      }
      for (const entry of fs.readdirSync(file)) walk(path.join(file, entry), false);
    } else {
      usage.apparentBytes += stat.size;
      usage.files += 1;
    }
  };
  for (const file of paths) walk(file, true);
  return usage;
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
