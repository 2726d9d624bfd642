import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { LocalObjectFiles } from './local-object-files.js';
import { isValidObjectKey, validateObjectKeyPrefix } from './object-key.js';
import type { ListedObject } from './object-store.js';

/** Files of one folder looked at in parallel: enough to keep the thread pool busy, not to flood it. */
const STAT_BATCH = 32;

const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * The objects of a local store under a prefix: a walk of `data/` from the deepest folder the prefix
 * names, one folder read at a time, so memory holds one folder's names and never the whole store.
 * Files whose path is not a valid key (put there by hand) are skipped; an object removed while the
 * walk runs is simply not reported.
 */
export async function* listLocalObjects(files: LocalObjectFiles, prefix: string): AsyncGenerator<ListedObject> {
  validateObjectKeyPrefix(prefix);
  const slash = prefix.lastIndexOf('/');
  const startKey = slash === -1 ? '' : prefix.slice(0, slash);
  const pending: Array<{ directory: string; key: string }> = [
    { directory: startKey ? files.dataPath(startKey) : files.dataRoot, key: startKey },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(next.directory, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    const found: Array<{ key: string; file: string }> = [];
    for (const entry of entries) {
      const key = next.key ? `${next.key}/${entry.name}` : entry.name;
      const file = path.join(next.directory, entry.name);
      // A folder matters when keys inside it can start with the prefix.
      if (entry.isDirectory() && `${key}/`.startsWith(prefix.slice(0, key.length + 1))) {
        pending.push({ directory: file, key });
      } else if (entry.isFile() && key.startsWith(prefix) && isValidObjectKey(key)) {
        found.push({ key, file });
      }
    }
    for (let start = 0; start < found.length; start += STAT_BATCH) {
      const stats = await Promise.all(
        found.slice(start, start + STAT_BATCH).map(({ key, file }) =>
          fsp.stat(file).then(
            (stat) => ({ key, size: stat.size, lastModified: new Date(stat.mtimeMs) }),
            (error: unknown) => {
              if (isMissing(error)) return undefined;
              throw error;
            },
          ),
        ),
      );
      for (const listed of stats) if (listed) yield listed;
    }
  }
}

/**
 * Removes the folders a deleted object leaves empty, from the object's own up to (not including)
 * the store's roots. Best effort: a folder that is not empty (or already gone) ends the climb. A
 * writer that meets a folder removed meanwhile creates it again (LocalObjectFiles.renameInto).
 */
export async function removeEmptyFolders(root: string, file: string): Promise<void> {
  for (let folder = path.dirname(file); folder.startsWith(root + path.sep); folder = path.dirname(folder)) {
    try {
      await fsp.rmdir(folder);
    } catch {
      return;
    }
  }
}
