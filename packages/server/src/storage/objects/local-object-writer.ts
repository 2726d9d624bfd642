import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentTypeImpliedBy, type LocalObjectFiles, type MetaFile } from './local-object-files.js';
import { SMALL_OBJECT_MAX_BYTES } from './local-object-reader.js';
import { type PutStreamOptions, UploadRejected } from './object-store.js';

/**
 * Writes objects of the local store. One write path: stream into a temporary file while hashing
 * and counting, check the constraints, and rename into place. A small object given whole (a
 * certificate PDF) is written synchronously instead, behind the same put: under load each
 * asynchronous step waits a whole event-loop turn, which would be most of a small write's time.
 */
export class LocalObjectWriter {
  constructor(private readonly files: LocalObjectFiles) {}

  async put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    if (body.length <= SMALL_OBJECT_MAX_BYTES) {
      this.putSmall(key, body, meta.contentType);
      return;
    }
    await this.putStream(key, Readable.from([body]), {
      contentType: meta.contentType,
      size: body.length,
      maxBytes: body.length,
    });
  }

  /**
   * Streams bytes into the store, checking hash and size on the way. Reading stops at the first
   * byte past `maxBytes`, so an oversized upload costs at most that many bytes of disk and time.
   */
  async putStream(key: string, body: Readable, options: PutStreamOptions): Promise<{ created: boolean }> {
    this.files.dataPath(key); // validates the key before anything touches the disk
    await this.files.ensureDirectory(this.files.tmpRoot);
    const tmp = this.files.tmpFile();
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > options.maxBytes) {
          done(
            new UploadRejected('too-large', `The upload is larger than ${options.maxBytes} bytes`, {
              limit: options.maxBytes,
            }),
          );
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
        throw new UploadRejected('size-mismatch', `The upload has ${size} bytes, ${options.size} were announced`);
      }
      if (options.sha256 !== undefined && sha256 !== options.sha256) {
        throw new UploadRejected('hash-mismatch', 'The SHA-256 of the upload does not match the expected hash');
      }
      if (await this.files.holds(key, sha256, size)) {
        await fsp.rm(tmp, { force: true });
        return { created: false };
      }
      await this.files.commit(key, tmp, { contentType: options.contentType, size, sha256 });
      return { created: true };
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.files.dataPath(key), { force: true });
    await fsp.rm(this.files.metaPath(key), { force: true });
  }

  /**
   * The write path for a small object given whole, done synchronously: under load each
   * asynchronous step costs a full event-loop turn, while the whole sequence done in place is a
   * handful of system calls. Creating a file is the expensive one on some file systems (ext4
   * without a journal searches past recently freed inodes), so when the key's extension already
   * names the content type (`.pdf`) no meta file is written: the reader derives the type from the
   * key and a validator from size, mtime and inode.
   */
  private putSmall(key: string, body: Buffer, contentType: string): void {
    const files = this.files;
    const dataPath = files.dataPath(key);
    const metaPath = files.metaPath(key);
    const meta: MetaFile = {
      contentType,
      size: body.length,
      sha256: createHash('sha256').update(body).digest('base64url'),
    };
    const stored = files.readMetaSync(key);
    if (files.holdsSync(key, stored, meta)) return;
    const tmpData = files.tmpFile();
    const tmpMeta = contentTypeImpliedBy(key) === contentType ? undefined : files.tmpFile();
    /** Set once the new meta is in place: a failure after it must not leave it describing other bytes. */
    let metaPlaced = false;
    const attempt = () => {
      // Everything that can run out of room (files, folders) happens before the first rename, so
      // a full disk leaves the object as it was and nothing but temporary files, removed below.
      files.ensureDirectorySync(files.tmpRoot);
      fs.writeFileSync(tmpData, body);
      if (tmpMeta) fs.writeFileSync(tmpMeta, JSON.stringify(meta));
      if (tmpMeta) files.ensureDirectorySync(path.dirname(metaPath));
      files.ensureDirectorySync(path.dirname(dataPath));
      if (tmpMeta) {
        fs.renameSync(tmpMeta, metaPath);
        metaPlaced = true;
      } else if (stored) {
        // An earlier object's meta must not describe this one.
        fs.rmSync(metaPath, { force: true });
      }
      // Meta before data: a reader that finds the data always finds its matching meta (or none).
      fs.renameSync(tmpData, dataPath);
    };
    try {
      try {
        attempt();
      } catch (error) {
        // A cached folder removed behind our back: forget the cache and try once more.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        files.forgetDirectories();
        attempt();
      }
    } catch (error) {
      if (tmpMeta) fs.rmSync(tmpMeta, { force: true });
      fs.rmSync(tmpData, { force: true });
      // Without its meta the data (an earlier object's, or none) is described from its own stat.
      if (metaPlaced) fs.rmSync(metaPath, { force: true });
      throw files.collision(error);
    }
  }
}
