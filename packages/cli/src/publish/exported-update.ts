import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileExtension, type Platform } from '@ferry/contracts';
import mime from 'mime';
import { CliError } from '../cli-error.js';
import { ExportMetadata } from './export-metadata.js';

/** One file of an export, described the way a release lists it (minus the URL the server assigns). */
export interface ExportedFile {
  /** Absolute path on disk. */
  file: string;
  /** Path relative to the export folder, as metadata.json names it. */
  relativePath: string;
  size: number;
  /** Unpadded base64url SHA-256: the manifest hash the app verifies. */
  hash: string;
  /** MD5 hex of the content: the key expo-asset looks assets up by (Metro names exported assets so). */
  key: string;
  contentType: string;
  fileExtension?: string;
}

export interface ExportedPlatform {
  platform: Platform;
  launchAsset: ExportedFile;
  assets: ExportedFile[];
}

const LAUNCH_ASSET_CONTENT_TYPE = 'application/javascript';
// Expo's own servers give the launch asset ".bundle" whatever Metro named it (.js or .hbc); the client ignores it.
const LAUNCH_ASSET_EXTENSION = '.bundle';

async function digestFile(file: string): Promise<{ sha256: string; md5: string; size: number }> {
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    sha256.update(chunk as Buffer);
    md5.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: sha256.digest('base64url'), md5: md5.digest('hex'), size };
}

/** Resolves a metadata.json path inside the export folder; anything that escapes it is refused. */
function resolveInside(distDir: string, relativePath: string): string {
  const resolved = path.resolve(distDir, relativePath);
  const inside = path.relative(distDir, resolved);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new CliError(`metadata.json names a file outside the export folder: ${JSON.stringify(relativePath)}.`);
  }
  return resolved;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function describe(
  distDir: string,
  relativePath: string,
  type: { contentType: string; fileExtension?: string },
): Promise<ExportedFile> {
  const file = resolveInside(distDir, relativePath);
  const { sha256, md5, size } = await digestFile(file);
  return { file, relativePath, size, hash: sha256, key: md5, ...type };
}

function assetType(ext: string, relativePath: string): { contentType: string; fileExtension?: string } {
  if (ext === '') return { contentType: 'application/octet-stream' };
  // The contracts' rule, the one the server applies to fileExtension.
  if (!FileExtension.safeParse(`.${ext}`).success) {
    throw new CliError(
      `metadata.json gives ${relativePath} an unusable extension ${JSON.stringify(ext)}: a file extension is 1-32 letters or digits.`,
    );
  }
  return { contentType: mime.getType(ext) ?? 'application/octet-stream', fileExtension: `.${ext}` };
}

/**
 * Reads an `expo export` folder: checks that metadata.json is there, describes every requested
 * platform, and checks that every file it names exists, before anything is hashed or uploaded.
 */
export async function readExportedUpdate(distDir: string, platforms: Platform[]): Promise<ExportedPlatform[]> {
  const metadataFile = path.join(distDir, 'metadata.json');
  let raw: string;
  try {
    raw = await fs.readFile(metadataFile, 'utf8');
  } catch {
    throw new CliError(`${metadataFile} is missing: is ${distDir} the output of \`npx expo export\`?`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new CliError(`${metadataFile} is not valid JSON.`);
  }
  const parsed = ExportMetadata.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(
      `${metadataFile} is not an expo export metadata file: ${issue?.path.join('.') || 'root'}: ${issue?.message}.`,
    );
  }
  const metadata = parsed.data;

  const absent = platforms.filter((platform) => !metadata.fileMetadata[platform]);
  if (absent.length > 0) {
    throw new CliError(
      `The export has no ${absent.join(' or ')} bundle (metadata.json lists ${Object.keys(metadata.fileMetadata).join(', ') || 'nothing'}). ` +
        'Export every platform you publish: npx expo export --platform <p>.',
    );
  }

  const named = platforms.flatMap((platform) => {
    const entry = metadata.fileMetadata[platform]!;
    return [entry.bundle, ...entry.assets.map((asset) => asset.path)];
  });
  const missing: string[] = [];
  for (const relativePath of new Set(named)) {
    if (!(await isFile(resolveInside(distDir, relativePath)))) missing.push(relativePath);
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(', ');
    throw new CliError(
      `${missing.length} file(s) named by metadata.json are missing from ${distDir}: ${shown}${missing.length > 10 ? ', …' : ''}.`,
    );
  }

  const result: ExportedPlatform[] = [];
  for (const platform of platforms) {
    const entry = metadata.fileMetadata[platform]!;
    const launchAsset = await describe(distDir, entry.bundle, {
      contentType: LAUNCH_ASSET_CONTENT_TYPE,
      fileExtension: LAUNCH_ASSET_EXTENSION,
    });
    const assets: ExportedFile[] = [];
    const seen = new Set<string>();
    for (const asset of entry.assets) {
      // The same file listed twice would be two identical manifest entries; keep the first.
      if (seen.has(asset.path)) continue;
      seen.add(asset.path);
      assets.push(await describe(distDir, asset.path, assetType(asset.ext, asset.path)));
    }
    result.push({ platform, launchAsset, assets });
  }
  return result;
}
