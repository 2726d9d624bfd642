import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Platform } from '@ferry/contracts';
import {
  FINGERPRINT_CACHE_VARIABLE,
  FINGERPRINT_CONFIG_FILES,
  fingerprintEnvironment,
  resolveAppFingerprintTool,
} from './app-fingerprint.js';

export type Env = Record<string, string | undefined>;

/**
 * Each platform's fingerprint once per command run, and once per CI job: `ferry gate`, `ferry bump
 * --if-drift` and `ferry publish` in one job share what the first of them computed, through a file
 * named by FERRY_FINGERPRINT_CACHE (the templates put it in $RUNNER_TEMP, which lives as long as
 * the job). An entry is reused only when its key, taken again now, is the same: every input the
 * fingerprint can read that lies in the checkout (the commit, the working tree, every ignored file
 * and node_modules by their stat records), the environment the fingerprint command gets, and the
 * tools (node, expo-updates, @expo/fingerprint). docs/publishing.md, "The fingerprint once per CI job",
 * says why this cannot hand out a fingerprint whose inputs changed.
 */

export type FingerprintFunction = (projectRoot: string, platform: Platform) => Promise<{ hash: string }>;

/** The key of a checkout's fingerprint inputs, or why there is none (then nothing is reused or stored). */
export type InputsKey = { key: string } | { unkeyable: string };
export type InputsKeyFunction = (projectRoot: string, env: Env) => Promise<InputsKey>;

const execFileAsync = promisify(execFile);
const git = async (cwd: string, args: string[]): Promise<string> =>
  (await execFileAsync('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })).stdout;

/** One line per file under `target` (itself included): type, size, times, inode, mode, link target. */
function statRecords(target: string, hash: ReturnType<typeof createHash>): void {
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(target, { bigint: true });
  } catch {
    hash.update(`${target}\0missing\n`);
    return;
  }
  const kind = stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : stat.isFile() ? 'f' : 'o';
  const link = kind === 'l' ? fs.readlinkSync(target) : '';
  hash.update(
    `${target}\0${kind}\0${stat.size}\0${stat.mtimeNs}\0${stat.ctimeNs}\0${stat.ino}\0${stat.mode}\0${link}\n`,
  );
  if (kind !== 'd') return;
  for (const name of fs.readdirSync(target).sort()) statRecords(path.join(target, name), hash);
}

/**
 * The real key. Git says which tracked files differ from the commit and which files are untracked
 * or ignored; each of those is taken by its stat records (any write changes its ctime, which no
 * tool can set back), and every ignored directory (node_modules among them) file by file. With the
 * commit, that is every file of the checkout. Outside a git checkout there is no key.
 */
export const checkoutInputsKey: InputsKeyFunction = async (projectRoot, env) => {
  let top: string;
  let head: string;
  try {
    top = (await git(projectRoot, ['rev-parse', '--show-toplevel'])).trim();
    head = (await git(projectRoot, ['rev-parse', '--verify', 'HEAD'])).trim();
  } catch {
    return { unkeyable: `${projectRoot} is not in a git checkout with a commit` };
  }
  const store = env[FINGERPRINT_CACHE_VARIABLE]?.trim();
  if (store && !path.relative(top, path.resolve(store)).startsWith('..')) {
    // Each write would change the checkout, and with it the key.
    return {
      unkeyable: `${FINGERPRINT_CACHE_VARIABLE} names a file in the checkout (${store}); name one outside it, such as $RUNNER_TEMP/ferry-fingerprints.json`,
    };
  }
  const hash = createHash('sha256');
  hash.update(`ferry-fingerprint-inputs 1\0${path.resolve(projectRoot)}\0${top}\0${head}\n`);
  // Tracked files that differ from HEAD, and untracked ones: each by name, then by stat.
  const status = await git(top, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--ignore-submodules=none',
  ]);
  hash.update(`status\0${status}\n`);
  // Every ignored file or directory (a directory once, as --directory lists it).
  const ignored = await git(top, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
  hash.update(`ignored\0${ignored}\n`);
  // -z: `XY path`, and after a rename or copy the source path in a field of its own.
  const fields = status.split('\0');
  const changed: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    changed.push(field.slice(3));
    if (field[0] === 'R' || field[0] === 'C') changed.push(fields[++i] ?? '');
  }
  for (const file of [...changed, ...ignored.split('\0')].filter(Boolean).sort()) {
    statRecords(path.join(top, file.replace(/\/$/, '')), hash);
  }
  // The tools: this node, the app's expo-updates and @expo/fingerprint, the fingerprint config.
  const tool = resolveAppFingerprintTool(projectRoot);
  hash.update(`tools\0${process.execPath}\0${process.version}\0${JSON.stringify(tool)}\n`);
  for (const name of FINGERPRINT_CONFIG_FILES) statRecords(path.join(projectRoot, name), hash);
  // The environment the fingerprint command gets, every variable.
  const environment = Object.entries(fingerprintEnvironment(env)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  hash.update(`env\0${JSON.stringify(environment)}\n`);
  return { key: hash.digest('hex') };
};

interface StoreEntry {
  key: string;
  hash: string;
  command: string;
  at: string;
}
type Store = Record<string, StoreEntry>;

function readStore(file: string): Store {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown; entries?: unknown };
    return parsed.version === 1 && parsed.entries && typeof parsed.entries === 'object'
      ? (parsed.entries as Store)
      : {};
  } catch {
    return {};
  }
}

function writeStore(file: string, entries: Store): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

export interface FingerprintReuseOptions {
  /** FERRY_FINGERPRINT_CACHE is read from it, and it is the environment the key takes. */
  env: Env;
  /** Computes one platform's fingerprint (the app's `expo-updates fingerprint:generate`). */
  compute: FingerprintFunction;
  /** What the computation is for, written with each entry (`ferry gate`, …). */
  command: string;
  /** The key of the inputs (default: checkoutInputsKey). */
  inputsKey?: InputsKeyFunction;
  log?: (line: string) => void;
}

/**
 * A fingerprint function that computes each (project, platform) at most once per command run and,
 * with FERRY_FINGERPRINT_CACHE set, reuses an entry of that file whose key equals the inputs' key
 * now. A computed fingerprint is stored only when the key taken after the computation equals the
 * one taken before it (nothing changed while it ran).
 */
export function fingerprintsOnce(options: FingerprintReuseOptions): FingerprintFunction {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const storeFile = options.env[FINGERPRINT_CACHE_VARIABLE]?.trim() || undefined;
  const inputsKey = options.inputsKey ?? checkoutInputsKey;
  const computed = new Map<string, Promise<{ hash: string }>>();

  /** The newest key taken per project: a key taken after one computation is the one before the next. */
  const latest = new Map<string, Promise<InputsKey>>();
  const keyNow = (projectRoot: string): Promise<InputsKey> => {
    const key = inputsKey(projectRoot, options.env).catch(
      (error: unknown): InputsKey => ({ unkeyable: error instanceof Error ? error.message : String(error) }),
    );
    latest.set(path.resolve(projectRoot), key);
    return key;
  };

  /**
   * Computations under way per project. They share the key taken after them: `ferry publish`
   * computes both platforms at once, and takes two keys, not three.
   */
  interface Batch {
    running: number;
    pending: Array<{ entryName: string; platform: Platform; hash: string; before: string }>;
    done: Promise<void>;
    finish: () => void;
  }
  const batches = new Map<string, Batch>();
  const batchOf = (root: string): Batch => {
    let batch = batches.get(root);
    if (!batch) {
      let finish = () => {};
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      batch = { running: 0, pending: [], done, finish };
      batches.set(root, batch);
    }
    return batch;
  };
  /** Stores what the batch computed if the key now is the one each computation started from. */
  const flush = async (root: string, batch: Batch): Promise<void> => {
    batches.delete(root);
    latest.delete(root);
    try {
      if (batch.pending.length === 0) return;
      const after = await keyNow(root);
      const entries = readStore(storeFile!);
      for (const done of batch.pending) {
        if ('key' in after && after.key === done.before) {
          entries[done.entryName] = {
            key: done.before,
            hash: done.hash,
            command: options.command,
            at: new Date().toISOString(),
          };
        } else {
          log(`${done.platform}: the checkout changed while the fingerprint was computed; not stored for reuse`);
        }
      }
      writeStore(storeFile!, entries);
    } finally {
      batch.finish();
    }
  };

  const once = async (projectRoot: string, platform: Platform): Promise<{ hash: string }> => {
    if (!storeFile) return options.compute(projectRoot, platform);
    const entryName = `${path.resolve(projectRoot)}\0${platform}`;
    const before = await (latest.get(path.resolve(projectRoot)) ?? keyNow(projectRoot));
    if ('unkeyable' in before) {
      log(`${platform}: computing the fingerprint (not reused: ${before.unkeyable})`);
      return options.compute(projectRoot, platform);
    }
    const entry = readStore(storeFile)[entryName];
    if (entry?.key === before.key) {
      log(
        `${platform}: fingerprint ${entry.hash} (computed by ${entry.command} in this job; its inputs are unchanged)`,
      );
      return { hash: entry.hash };
    }
    const root = path.resolve(projectRoot);
    const batch = batchOf(root);
    batch.running++;
    try {
      const result = await options.compute(projectRoot, platform);
      batch.pending.push({ entryName, platform, hash: result.hash, before: before.key });
      return result;
    } finally {
      // The last computation of the project under way takes the key after them all.
      if (--batch.running === 0) await flush(root, batch);
      else await batch.done;
    }
  };

  return (projectRoot, platform) => {
    const name = `${path.resolve(projectRoot)}\0${platform}`;
    let result = computed.get(name);
    if (!result) {
      result = once(projectRoot, platform);
      computed.set(name, result);
      // A failure is not kept: it is reported once, and a later call tries again.
      result.catch(() => computed.delete(name));
    }
    return result;
  };
}
