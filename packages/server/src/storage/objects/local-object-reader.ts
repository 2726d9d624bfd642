import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { LocalObjectFiles } from './local-object-files.js';
import type { StoredObject } from './object-store.js';

/** Objects up to this size are read whole and synchronously; see LocalObjectReader.get. */
export const SMALL_OBJECT_MAX_BYTES = 64 * 1024;

/**
 * Reads objects of the local store. One get path: open the file once, and read it whole when it
 * is small (a certificate PDF), or stream it from that same descriptor when it is not.
 */
export class LocalObjectReader {
  constructor(private readonly files: LocalObjectFiles) {}

  async head(key: string): Promise<StoredObject | undefined> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(this.files.dataPath(key));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    if (!stat.isFile()) return undefined;
    return this.files.describe(key, stat, await this.files.readMeta(key));
  }

  /**
   * Opens the object synchronously: open and fstat of one page-cached file are a few system calls,
   * while the asynchronous path takes several thread-pool trips per object, each waking the event
   * loop. One descriptor serves the size, the
   * validator and the bytes, so they always belong together even when the object is replaced
   * meanwhile (a write is a rename). Small objects are read whole on the spot; larger ones stream
   * from the same descriptor.
   */
  async get(key: string): Promise<(StoredObject & { body: Readable }) | undefined> {
    let fd: number;
    try {
      fd = fs.openSync(this.files.dataPath(key), 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    let streaming = false;
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return undefined;
      const object = this.files.describe(key, stat, this.files.readMetaSync(key));
      if (stat.size > SMALL_OBJECT_MAX_BYTES) {
        streaming = true;
        return { ...object, body: fs.createReadStream('', { fd, autoClose: true }) };
      }
      const bytes = Buffer.allocUnsafe(stat.size);
      let filled = 0;
      while (filled < bytes.length) {
        const read = fs.readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      const body = bytes.subarray(0, filled);
      return { ...object, size: body.length, body: Readable.from([body]) };
    } finally {
      if (!streaming) fs.closeSync(fd);
    }
  }

  /**
   * The whole object, read into one buffer of its size by the kernel (FileHandle.readFile), from
   * one descriptor as `get` does. Gathering a stream's chunks costs two more copies of the bytes,
   * and a buffer that only user code has written is slower for the kernel to send the first time
   * than one the kernel read the file into: the first device to download a new bundle must not
   * wait longer than the next.
   */
  async read(key: string): Promise<(StoredObject & { bytes: Buffer }) | undefined> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.files.dataPath(key), 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return undefined;
      const object = this.files.describe(key, stat, await this.files.readMeta(key));
      const bytes = await handle.readFile();
      return { ...object, size: bytes.length, bytes };
    } finally {
      await handle.close();
    }
  }
}
