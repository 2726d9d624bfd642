import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InvalidObjectKeyError, validateObjectKey } from './object-key.js';
import type { StoredObject } from './object-store.js';

/** Extensions that name their content type unambiguously; see LocalObjectWriter.putSmall. */
const IMPLIED_CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

export const contentTypeImpliedBy = (key: string): string | undefined =>
  IMPLIED_CONTENT_TYPES[path.posix.extname(key).toLowerCase()];

/** The meta file beside an object: what the bytes alone do not say. */
export interface MetaFile {
  contentType: string;
  size: number;
  /** Unpadded base64url SHA-256 of the content; doubles as the ETag. */
  sha256: string;
}

const PARTIAL_SUFFIX = '.part';
/** A partial written on another host is an orphan once nothing has been written to it for this long. */
export const FOREIGN_PARTIAL_IDLE_MS = 60 * 60 * 1000;

/** Who writes a partial: `<host>~<pid>~<uuid>.part`, so a sweep can tell whose it is. */
const HOST = encodeURIComponent(os.hostname());
const partialOwner = (name: string): { host: string; pid: number } | undefined => {
  const [host, pid, rest] = name.split('~');
  return rest !== undefined && host && /^\d+$/.test(pid ?? '') ? { host, pid: Number(pid) } : undefined;
};
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * The local store's layout under its root: `data/<key>` holds the bytes, `meta/<key>.json` the
 * content type and SHA-256, `tmp/*.part` the writes in progress. Every write lands in tmp and is
 * renamed into place (meta first), so readers never see half an object. The reader and the writer
 * share this one description of where things are.
 */
export class LocalObjectFiles {
  readonly dataRoot: string;
  readonly metaRoot: string;
  readonly tmpRoot: string;
  /** Folders this process has created or found; see ensureDirectory. */
  private readonly directories = new Set<string>();

  constructor(directory: string) {
    const root = path.resolve(directory);
    this.dataRoot = path.join(root, 'data');
    this.metaRoot = path.join(root, 'meta');
    this.tmpRoot = path.join(root, 'tmp');
  }

  /** Resolves a validated key under a root; the containment check is a second line of defence. */
  private pathIn(root: string, key: string, suffix = ''): string {
    validateObjectKey(key);
    const resolved = path.resolve(root, ...key.split('/')) + suffix;
    if (!resolved.startsWith(root + path.sep)) throw new InvalidObjectKeyError('the object key leaves the store');
    return resolved;
  }

  dataPath(key: string): string {
    return this.pathIn(this.dataRoot, key);
  }

  metaPath(key: string): string {
    return this.pathIn(this.metaRoot, key, '.json');
  }

  tmpFile(): string {
    return path.join(this.tmpRoot, `${HOST}~${process.pid}~${randomUUID()}${PARTIAL_SUFFIX}`);
  }

  async readMeta(key: string): Promise<MetaFile | undefined> {
    try {
      return JSON.parse(await fsp.readFile(this.metaPath(key), 'utf8')) as MetaFile;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  readMetaSync(key: string): MetaFile | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.metaPath(key), 'utf8')) as MetaFile;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** What a reader is told about the file at a key, from its stat and its meta file if any. */
  describe(key: string, stat: fs.Stats, meta: MetaFile | undefined): StoredObject {
    if (meta && meta.size === stat.size) {
      return { key, size: meta.size, contentType: meta.contentType, etag: `"${meta.sha256}"` };
    }
    // A small object whose extension names its type (no meta file), or a file put there by hand:
    // serve it, with a validator that changes whenever the file does.
    return {
      key,
      size: stat.size,
      contentType: contentTypeImpliedBy(key) ?? 'application/octet-stream',
      // Every write renames a new file into place, so the inode number changes with each one,
      // even when size and modification time (ms) stay the same.
      etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}-${stat.ino.toString(36)}"`,
    };
  }

  /** Whether the key already holds exactly these bytes (identical content is never rewritten). */
  async holds(key: string, sha256: string, size: number): Promise<boolean> {
    const meta = await this.readMeta(key);
    if (!meta || meta.sha256 !== sha256 || meta.size !== size) return false;
    const stat = await fsp.stat(this.dataPath(key)).catch(() => undefined);
    return stat?.isFile() === true && stat.size === size;
  }

  holdsSync(key: string, stored: MetaFile | undefined, wanted: MetaFile): boolean {
    if (!stored || stored.sha256 !== wanted.sha256 || stored.size !== wanted.size) return false;
    const stat = fs.statSync(this.dataPath(key), { throwIfNoEntry: false });
    return stat?.isFile() === true && stat.size === wanted.size;
  }

  ensureDirectorySync(directory: string): void {
    if (this.directories.has(directory)) return;
    fs.mkdirSync(directory, { recursive: true });
    this.rememberDirectory(directory);
  }

  /** Creates a directory once per process; known ones cost no thread-pool trip. */
  async ensureDirectory(directory: string): Promise<void> {
    if (this.directories.has(directory)) return;
    await fsp.mkdir(directory, { recursive: true });
    this.rememberDirectory(directory);
  }

  /** A cached folder was removed behind our back: forget them all so the next write creates it. */
  forgetDirectories(): void {
    this.directories.clear();
  }

  /** Bounded: one entry per folder, forgotten wholesale rather than growing without end. */
  private rememberDirectory(directory: string): void {
    if (this.directories.size >= 10_000) this.directories.clear();
    this.directories.add(directory);
  }

  /**
   * Moves a finished temporary file (and its meta) into place: meta first, then data, so a reader
   * that finds the data always finds its matching meta. Removes the temporary files on failure.
   */
  async commit(key: string, tmpData: string, meta: MetaFile): Promise<void> {
    const dataPath = this.dataPath(key);
    const metaPath = this.metaPath(key);
    const tmpMeta = this.tmpFile();
    const removeTemporary = () => Promise.all([fsp.rm(tmpMeta, { force: true }), fsp.rm(tmpData, { force: true })]);
    const steps = await Promise.allSettled([
      fsp.writeFile(tmpMeta, JSON.stringify(meta)),
      this.ensureDirectory(path.dirname(metaPath)),
      this.ensureDirectory(path.dirname(dataPath)),
    ]);
    const failed = steps.find((result) => result.status === 'rejected');
    let metaPlaced = false;
    try {
      // A full disk fails one of the steps above (a meta file half written, a folder), before any
      // rename: the temporary files are all there is to remove.
      if (failed) throw failed.reason;
      await this.renameInto(tmpMeta, metaPath);
      metaPlaced = true;
      await this.renameInto(tmpData, dataPath);
    } catch (error) {
      await removeTemporary();
      // The new meta must not describe other bytes; without it the data is described from its stat.
      if (metaPlaced) await fsp.rm(metaPath, { force: true });
      throw this.collision(error);
    }
  }

  /** Renames into place; a cached folder removed behind our back is forgotten and created again, once. */
  private async renameInto(from: string, to: string): Promise<void> {
    try {
      await fsp.rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.forgetDirectories();
      await this.ensureDirectory(path.dirname(to));
      await fsp.rename(from, to);
    }
  }

  /** A key used as a folder by another key (or the reverse) is the caller's mistake, not a fault. */
  collision(error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') {
      return new InvalidObjectKeyError('the object key collides with an existing key used as a folder');
    }
    return error;
  }

  /**
   * Removes the partial writes crashed processes left in tmp/. Several processes may share the
   * store (one host, or a shared file system), so a partial is removed only when its writer is
   * surely gone: written on this host by a process that no longer runs, or by this process id at
   * start-up (a restarted container keeps both, and nothing of this process is in progress yet);
   * written on another host (or unnamed), once idle for an hour. Returns how many were removed.
   */
  async sweepPartials(options: { startingUp: boolean; now?: number }): Promise<number> {
    const now = options.now ?? Date.now();
    let names: string[];
    try {
      names = await fsp.readdir(this.tmpRoot);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names.filter((each) => each.endsWith(PARTIAL_SUFFIX))) {
      const file = path.join(this.tmpRoot, name);
      const owner = partialOwner(name);
      let orphan: boolean;
      if (owner?.host === HOST) {
        orphan = owner.pid === process.pid ? options.startingUp : !isRunning(owner.pid);
      } else {
        const stat = await fsp.stat(file).catch(() => undefined);
        orphan = stat !== undefined && now - stat.mtimeMs >= FOREIGN_PARTIAL_IDLE_MS;
      }
      if (orphan) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
