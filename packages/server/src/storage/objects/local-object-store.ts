import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidObjectKeyError, objectKeyToUrlPath, validateObjectKey } from './object-key.js';
import type { ObjectStore, SignedPutOptions, SignedRequest, StoredObject } from './object-store.js';
import type { ObjectUrlSigner } from './object-url-signer.js';

/** Objects up to this size are written and read synchronously; see putSmall and getSmallSync. */
const SMALL_OBJECT_MAX_BYTES = 64 * 1024;

/** Extensions that name their content type unambiguously; see putSmall. */
const IMPLIED_CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

const contentTypeImpliedBy = (key: string): string | undefined =>
  IMPLIED_CONTENT_TYPES[path.posix.extname(key).toLowerCase()];

/** An upload that broke one of its constraints; nothing was stored. */
export class UploadRejectedError extends Error {
  override name = 'UploadRejectedError';
  constructor(
    readonly reason: 'hash-mismatch' | 'size-mismatch' | 'too-large',
    message: string,
  ) {
    super(message);
  }
}

interface MetaFile {
  contentType: string;
  size: number;
  /** Unpadded base64url SHA-256 of the content; doubles as the ETag. */
  sha256: string;
}

export interface LocalObjectStoreOptions {
  /** The store's root, normally DATA_DIR/objects. */
  directory: string;
  /** Base of the URLs this server serves objects under (PUBLIC_URL + /objects), read per call. */
  baseUrl: () => string;
  signer: ObjectUrlSigner;
}

export interface PutStreamOptions {
  contentType: string;
  sha256?: string;
  size?: number;
  maxBytes: number;
}

/**
 * Local files under DATA_DIR/objects: `data/<key>` holds the bytes, `meta/<key>.json` the content
 * type and SHA-256, `tmp/` the uploads in progress. Every write lands in tmp and is renamed into
 * place, so readers never see half an object; identical content is never rewritten.
 */
export class LocalObjectStore implements ObjectStore {
  private readonly dataRoot: string;
  private readonly metaRoot: string;
  private readonly tmpRoot: string;
  /** Folders this process has created or found; see ensureDirectory. */
  private readonly directories = new Set<string>();

  constructor(private readonly options: LocalObjectStoreOptions) {
    const root = path.resolve(options.directory);
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

  private async readMeta(key: string): Promise<MetaFile | undefined> {
    try {
      return JSON.parse(await fsp.readFile(this.pathIn(this.metaRoot, key, '.json'), 'utf8')) as MetaFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObject | undefined> {
    const dataPath = this.pathIn(this.dataRoot, key);
    let stat: fs.Stats;
    try {
      stat = await fsp.stat(dataPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    if (!stat.isFile()) return undefined;
    return this.describe(key, stat, await this.readMeta(key));
  }

  private describe(key: string, stat: fs.Stats, meta: MetaFile | undefined): StoredObject {
    if (meta && meta.size === stat.size) {
      return { key, size: meta.size, contentType: meta.contentType, etag: `"${meta.sha256}"` };
    }
    // A small object whose extension names its type (see putSmall), or a file put there by hand:
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

  async get(key: string): Promise<(StoredObject & { body: Readable }) | undefined> {
    const small = this.getSmallSync(key);
    if (small !== 'large') return small;
    const head = await this.head(key);
    if (!head) return undefined;
    return { ...head, body: fs.createReadStream(this.pathIn(this.dataRoot, key)) };
  }

  /**
   * Reads an object of up to 64 KiB (a certificate PDF) whole, synchronously: open, fstat, read
   * and close of one page-cached file take tens of microseconds, while the streamed path costs
   * some nine thread-pool trips (stat, the meta file, then the stream's open, reads and close),
   * each waking the event loop. One descriptor serves the size, validator and bytes, so they
   * always belong together even when the object is replaced meanwhile (a write is a rename).
   */
  private getSmallSync(key: string): (StoredObject & { body: Readable }) | undefined | 'large' {
    let fd: number;
    try {
      fd = fs.openSync(this.pathIn(this.dataRoot, key), 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return undefined;
      if (stat.size > SMALL_OBJECT_MAX_BYTES) return 'large';
      const bytes = Buffer.allocUnsafe(stat.size);
      let filled = 0;
      while (filled < bytes.length) {
        const read = fs.readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      const body = bytes.subarray(0, filled);
      const object = this.describe(key, stat, this.metaSync(this.pathIn(this.metaRoot, key, '.json')));
      return { ...object, size: body.length, body: Readable.from([body]) };
    } finally {
      fs.closeSync(fd);
    }
  }

  async put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    // Validates the key before anything touches the disk.
    const dataPath = this.pathIn(this.dataRoot, key);
    const metaPath = this.pathIn(this.metaRoot, key, '.json');
    const dataDirectory = path.dirname(dataPath);
    const metaDirectory = path.dirname(metaPath);
    const sha256 = createHash('sha256').update(body).digest('base64url');
    const metaFile: MetaFile = { contentType: meta.contentType, size: body.length, sha256 };
    if (body.length <= SMALL_OBJECT_MAX_BYTES) {
      this.putSmall(key, body, metaFile, dataPath, metaPath);
      return;
    }
    const tmpData = this.tmpFile();
    const tmpMeta = this.tmpFile();
    // Every operation here is a trip through libuv's small thread pool, and under load each trip
    // waits in its queue; so everything that does not depend on another step runs at once instead
    // of one after the other. A new key (the usual case) is never held; when it is, writing the
    // temporary files was wasted but harmless.
    const [held, ...writes] = await Promise.allSettled([
      this.holds(key, sha256, body.length),
      this.ensureDirectory(this.tmpRoot).then(() =>
        Promise.all([fsp.writeFile(tmpData, body), fsp.writeFile(tmpMeta, JSON.stringify(metaFile))]),
      ),
      this.ensureDirectory(metaDirectory),
      this.ensureDirectory(dataDirectory),
    ]);
    const failed = [held, ...writes].find((result) => result.status === 'rejected');
    if (failed || (held.status === 'fulfilled' && held.value)) {
      await Promise.all([fsp.rm(tmpData, { force: true }), fsp.rm(tmpMeta, { force: true })]);
      if (failed) throw this.collision(failed.reason);
      return;
    }
    await this.rename(key, tmpData, tmpMeta);
  }

  /**
   * The same steps for a small object (a certificate PDF is a few KiB), done synchronously. Under
   * load each asynchronous step costs a full event-loop turn before the next can start (the async
   * path above still takes ~5 turns, which measured 45–90 ms per PDF in bench:certificates), while
   * the whole sequence done in place is a handful of system calls.
   *
   * Of those, creating a file or folder is the expensive one: up to ~1 ms of kernel time each on
   * ext4 without a journal after recent deletions nearby (docs/certificates.md, "Benchmark"). So
   * when the key's extension already names the content type (`.pdf`), no meta file is written:
   * head() derives the type from the key and a validator from size, mtime and inode. That leaves
   * one new file per object (renamed into place), where there were two files and two folders.
   */
  private putSmall(key: string, body: Buffer, meta: MetaFile, dataPath: string, metaPath: string): void {
    const stored = this.metaSync(metaPath);
    if (stored && this.holdsSync(dataPath, stored, meta)) return;
    const withoutMeta = contentTypeImpliedBy(key) === meta.contentType;
    const tmpData = this.tmpFile();
    const tmpMeta = withoutMeta ? undefined : this.tmpFile();
    const attempt = () => {
      this.ensureDirectorySync(this.tmpRoot);
      fs.writeFileSync(tmpData, body);
      if (tmpMeta) {
        fs.writeFileSync(tmpMeta, JSON.stringify(meta));
        this.ensureDirectorySync(path.dirname(metaPath));
        fs.renameSync(tmpMeta, metaPath);
      } else if (stored) {
        // An earlier object's meta must not describe this one.
        fs.rmSync(metaPath, { force: true });
      }
      this.ensureDirectorySync(path.dirname(dataPath));
      // Meta before data: a reader that finds the data always finds its matching meta (or none).
      fs.renameSync(tmpData, dataPath);
    };
    try {
      try {
        attempt();
      } catch (error) {
        // A cached folder removed behind our back: forget the cache and try once more.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.directories.clear();
        attempt();
      }
    } catch (error) {
      if (tmpMeta) fs.rmSync(tmpMeta, { force: true });
      fs.rmSync(tmpData, { force: true });
      throw this.collision(error);
    }
  }

  private metaSync(metaPath: string): MetaFile | undefined {
    try {
      return JSON.parse(fs.readFileSync(metaPath, 'utf8')) as MetaFile;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  private holdsSync(dataPath: string, stored: MetaFile, wanted: MetaFile): boolean {
    if (stored.sha256 !== wanted.sha256 || stored.size !== wanted.size) return false;
    const stat = fs.statSync(dataPath, { throwIfNoEntry: false });
    return stat?.isFile() === true && stat.size === wanted.size;
  }

  /**
   * Streams an upload into the store, checking its hash and size on the way. Used by the upload
   * route, so a 100 MiB asset is never held in memory.
   */
  async putStream(key: string, body: Readable, options: PutStreamOptions): Promise<{ created: boolean }> {
    this.pathIn(this.dataRoot, key);
    await this.ensureDirectory(this.tmpRoot);
    const tmp = this.tmpFile();
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > options.maxBytes) {
          done(new UploadRejectedError('too-large', `the upload is larger than ${options.maxBytes} bytes`));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, fs.createWriteStream(tmp));
      const sha256 = hash.digest('base64url');
      if (options.size !== undefined && size !== options.size) {
        throw new UploadRejectedError('size-mismatch', `the upload has ${size} bytes, ${options.size} were announced`);
      }
      if (options.sha256 !== undefined && sha256 !== options.sha256) {
        throw new UploadRejectedError('hash-mismatch', 'the SHA-256 of the upload does not match the expected hash');
      }
      if (await this.holds(key, sha256, size)) {
        await fsp.rm(tmp, { force: true });
        return { created: false };
      }
      await this.commit(key, tmp, { contentType: options.contentType, size, sha256 });
      return { created: true };
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathIn(this.dataRoot, key), { force: true });
    await fsp.rm(this.pathIn(this.metaRoot, key, '.json'), { force: true });
  }

  async signedGetUrl(key: string, ttlSeconds: number): Promise<string> {
    const grant = {
      method: 'GET' as const,
      key: validateObjectKey(key),
      expires: this.options.signer.expiresIn(ttlSeconds),
    };
    return `${this.urlOf(key)}?${this.options.signer.toQuery(grant)}`;
  }

  async signedPutUrl(key: string, options: SignedPutOptions): Promise<SignedRequest> {
    const grant = {
      method: 'PUT' as const,
      key: validateObjectKey(key),
      expires: this.options.signer.expiresIn(options.ttlSeconds),
      contentType: options.contentType,
      sha256: options.sha256Base64Url,
      size: options.size,
    };
    return {
      url: `${this.urlOf(key)}?${this.options.signer.toQuery(grant)}`,
      headers: { 'content-type': options.contentType },
    };
  }

  /** The unsigned URL of a key; public for update assets only. */
  urlOf(key: string): string {
    return `${this.options.baseUrl()}/${objectKeyToUrlPath(key)}`;
  }

  private tmpFile(): string {
    return path.join(this.tmpRoot, `${randomUUID()}.part`);
  }

  private async holds(key: string, sha256: string, size: number): Promise<boolean> {
    const meta = await this.readMeta(key);
    if (!meta || meta.sha256 !== sha256 || meta.size !== size) return false;
    const stat = await fsp.stat(this.pathIn(this.dataRoot, key)).catch(() => undefined);
    return stat?.isFile() === true && stat.size === size;
  }

  private ensureDirectorySync(directory: string): void {
    if (this.directories.has(directory)) return;
    fs.mkdirSync(directory, { recursive: true });
    this.rememberDirectory(directory);
  }

  /** Creates a directory once per process; known ones cost no thread-pool trip. */
  private async ensureDirectory(directory: string): Promise<void> {
    if (this.directories.has(directory)) return;
    await fsp.mkdir(directory, { recursive: true });
    this.rememberDirectory(directory);
  }

  /** Bounded: one entry per folder, forgotten wholesale rather than growing without end. */
  private rememberDirectory(directory: string): void {
    if (this.directories.size >= 10_000) this.directories.clear();
    this.directories.add(directory);
  }

  private async commit(key: string, tmpData: string, meta: MetaFile): Promise<void> {
    const dataDirectory = path.dirname(this.pathIn(this.dataRoot, key));
    const metaDirectory = path.dirname(this.pathIn(this.metaRoot, key, '.json'));
    const tmpMeta = this.tmpFile();
    const steps = await Promise.allSettled([
      fsp.writeFile(tmpMeta, JSON.stringify(meta)),
      this.ensureDirectory(metaDirectory),
      this.ensureDirectory(dataDirectory),
    ]);
    const failed = steps.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all([fsp.rm(tmpMeta, { force: true }), fsp.rm(tmpData, { force: true })]);
      throw this.collision(failed.reason);
    }
    await this.rename(key, tmpData, tmpMeta);
  }

  /** Meta first, then data: a reader that finds the data always finds its matching meta. */
  private async rename(key: string, tmpData: string, tmpMeta: string): Promise<void> {
    const dataPath = this.pathIn(this.dataRoot, key);
    const metaPath = this.pathIn(this.metaRoot, key, '.json');
    try {
      await this.renameInto(tmpMeta, metaPath);
      await this.renameInto(tmpData, dataPath);
    } catch (error) {
      await Promise.all([fsp.rm(tmpMeta, { force: true }), fsp.rm(tmpData, { force: true })]);
      throw this.collision(error);
    }
  }

  /** Renames into place; a cached folder removed behind our back is forgotten and created again, once. */
  private async renameInto(from: string, to: string): Promise<void> {
    try {
      await fsp.rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.directories.clear();
      await this.ensureDirectory(path.dirname(to));
      await fsp.rename(from, to);
    }
  }

  private collision(error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') {
      return new InvalidObjectKeyError('the object key collides with an existing key used as a folder');
    }
    return error;
  }
}
