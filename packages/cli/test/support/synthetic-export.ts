import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SyntheticFile {
  path: string;
  ext: string;
  content: Buffer;
}

export interface SyntheticExport {
  dir: string;
  files: Map<string, Buffer>;
  remove(): void;
}

export const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('base64url');
const md5 = (content: Buffer): string => createHash('md5').update(content).digest('hex');

/** An asset as Metro exports it: `assets/<md5>` with its extension in metadata.json. */
export const asset = (ext: string, content: Buffer = randomBytes(64)): SyntheticFile => ({
  path: `assets/${md5(content)}`,
  ext,
  content,
});

export const bundle = (platform: string, content: Buffer = randomBytes(256)): SyntheticFile => ({
  path: `_expo/static/js/${platform}/index-${md5(content)}.hbc`,
  ext: 'hbc',
  content,
});

/**
 * A folder shaped like `npx expo export` output: metadata.json with per-platform `bundle` and
 * `assets[{path, ext}]`, and the files it names.
 */
export function writeSyntheticExport(platforms: Record<string, { bundle: SyntheticFile; assets: SyntheticFile[] }>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-export-'));
  const files = new Map<string, Buffer>();
  const fileMetadata: Record<string, { bundle: string; assets: Array<{ path: string; ext: string }> }> = {};
  for (const [platform, entry] of Object.entries(platforms)) {
    fileMetadata[platform] = {
      bundle: entry.bundle.path,
      assets: entry.assets.map((a) => ({ path: a.path, ext: a.ext })),
    };
    for (const file of [entry.bundle, ...entry.assets]) {
      fs.mkdirSync(path.join(dir, path.dirname(file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.content);
      files.set(file.path, file.content);
    }
  }
  fs.writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ version: 0, bundler: 'metro', fileMetadata }));
  return { dir, files, remove: () => fs.rmSync(dir, { recursive: true, force: true }) } satisfies SyntheticExport;
}
