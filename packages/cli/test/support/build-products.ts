import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** Files by path (`/`-separated), as a build product holds them. */
export type Tree = Record<string, string | Buffer>;

/** An app.manifest as expo-updates writes it at build time: `{ id, commitTime, assets }`. */
export const appManifest = (id: string = randomUUID(), extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id, commitTime: 1_795_000_000_000, assets: [], ...extra });

/** A launch bundle of `size` bytes that does not compress to nothing (zips store it deflated). */
export const launchBundle = (size = 64 * 1024): Buffer =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919) % 251));

/** Writes `tree` under `dir` (an .app or .xcarchive directory). */
export function writeTree(dir: string, tree: Tree): string {
  for (const [name, content] of Object.entries(tree)) {
    const file = path.join(dir, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}

/** Writes `tree` as a zip archive (an .ipa, .apk or .aab), with yazl: yauzl's writing twin. */
export async function writeZip(file: string, tree: Tree): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(tree)) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  }
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file));
  return file;
}

/** The files of an iOS app (`<X>.app/…`) with its embedded update, as a static-pod build lays them out. */
export const iosAppFiles = (manifest: string, bundle: Buffer): Tree => ({
  Info: 'plist',
  'Expo.plist': 'plist',
  'main.jsbundle': bundle,
  'EXUpdates.bundle/app.manifest': manifest,
  'EXUpdates.bundle/fingerprint': 'abc',
  'assets/logo.png': 'png',
});

/** The files of an Android APK with its embedded update (an AAB has them under base/). */
export const androidFiles = (manifest: string, bundle: Buffer): Tree => ({
  'AndroidManifest.xml': 'binary xml',
  'classes.dex': 'dex',
  'assets/app.manifest': manifest,
  'assets/index.android.bundle': bundle,
  'res/drawable/logo.png': 'png',
});

/** `tree` with every path under `prefix`. */
export const under = (prefix: string, tree: Tree): Tree =>
  Object.fromEntries(Object.entries(tree).map(([name, content]) => [`${prefix}${name}`, content]));
