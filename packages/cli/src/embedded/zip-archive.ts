import type { NonSharedBuffer } from 'node:buffer';
import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { CliError } from '../cli-error.js';

/**
 * A zip archive (an .ipa, .apk or .aab) opened for reading a few of its files. Only the central
 * directory and the entries asked for are read, so a store build of hundreds of megabytes costs
 * the size of what is taken out of it.
 */
export interface ZipArchive {
  /** The archive's file names (directories left out), as stored: `/`-separated. */
  readonly names: readonly string[];
  /** One entry's bytes, uncompressed; undefined when the archive has no such file. */
  read(name: string): Promise<NonSharedBuffer | undefined>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens `file`, hands it to `use`, and closes it whatever `use` does. */
export async function withZipArchive<T>(file: string, use: (archive: ZipArchive) => Promise<T>): Promise<T> {
  let zip: yauzl.ZipFile;
  const entries = new Map<string, yauzl.Entry>();
  try {
    // autoClose off: entries are read after the listing ends, which would otherwise close the file.
    zip = await yauzl.openPromise(file, { autoClose: false });
  } catch (error) {
    throw new CliError(`${file} cannot be read as a zip archive: ${describe(error)}.`);
  }
  try {
    try {
      for await (const entry of zip.eachEntry()) {
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      }
    } catch (error) {
      throw new CliError(`${file} cannot be read as a zip archive: ${describe(error)}.`);
    }
    return await use({
      names: [...entries.keys()],
      async read(name) {
        const entry = entries.get(name);
        if (!entry) return undefined;
        try {
          return await buffer(await zip.openReadStreamPromise(entry));
        } catch (error) {
          throw new CliError(`${name} in ${file} cannot be read: ${describe(error)}.`);
        }
      },
    });
  } finally {
    zip.close();
  }
}
