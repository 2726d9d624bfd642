import type { NonSharedBuffer } from 'node:buffer';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Platform } from '@ferry/contracts';
import { CliError } from '../cli-error.js';
import { parseEmbeddedManifest } from './embedded-manifest.js';
import { checkedBundle, type EmbeddedUpdate } from './embedded-update.js';
import { withZipArchive } from './zip-archive.js';

/**
 * Where expo-updates puts the embedded update in a build, relative to the app (expo-updates 57):
 *
 * - iOS, inside `<X>.app`: the bundle is `main.jsbundle` (EmbeddedAppLoader's bare bundle, read from
 *   the main bundle); `app.manifest` is in `EXUpdates.bundle`, the pod's resource bundle, which
 *   CocoaPods copies to the app's top level for static pods and keeps inside the framework for
 *   dynamic ones; EmbeddedAppLoader falls back to the main bundle's own `app.manifest`.
 * - Android, inside the APK: `assets/app.manifest` (EmbeddedManifestUtils) and
 *   `assets/index.android.bundle` (EmbeddedLoader.BARE_BUNDLE_FILENAME); an AAB has the base
 *   module's assets under `base/assets/`.
 */
export const IOS_LAYOUT = {
  manifests: [
    'EXUpdates.bundle/app.manifest',
    'Frameworks/EXUpdates.framework/EXUpdates.bundle/app.manifest',
    'app.manifest',
  ],
  bundle: 'main.jsbundle',
} as const;
export const ANDROID_LAYOUT = { manifests: ['assets/app.manifest'], bundle: 'assets/index.android.bundle' } as const;

/** The build products `ferry embedded upload` reads, by the name's ending. */
export const BUILD_PRODUCTS = ['.app', '.xcarchive', '.ipa', '.apk', '.aab'] as const;

/** Files of one app inside a build product, by their path relative to the app. */
interface AppFiles {
  platform: Platform;
  read(relative: string): Promise<NonSharedBuffer | undefined>;
  /** Names a file for people: a path, or the entry and its archive. */
  describe(relative: string): string;
  /** Names the app for people. */
  where: string;
}

const NO_UPDATE_HINT =
  'expo-updates writes the embedded update only in release builds (a Debug build embeds none); is expo-updates installed in the app?';

/** The embedded update inside one app: its app.manifest's id and its launch bundle. */
async function readEmbedded(files: AppFiles): Promise<EmbeddedUpdate> {
  const layout = files.platform === 'ios' ? IOS_LAYOUT : ANDROID_LAYOUT;
  let manifest: { text: string; relative: string } | undefined;
  for (const relative of layout.manifests) {
    const bytes = await files.read(relative);
    if (bytes) {
      manifest = { text: bytes.toString('utf8'), relative };
      break;
    }
  }
  if (!manifest) {
    throw new CliError(
      `${files.where} has no app.manifest (looked for ${layout.manifests.join(', ')}). ${NO_UPDATE_HINT}`,
    );
  }
  const bundle = await files.read(layout.bundle);
  if (!bundle) throw new CliError(`${files.where} has no ${layout.bundle}. ${NO_UPDATE_HINT}`);
  const parsed = parseEmbeddedManifest(manifest.text, files.describe(manifest.relative));
  return {
    platform: files.platform,
    updateId: parsed.id,
    ...(parsed.runtimeVersion ? { runtimeVersion: parsed.runtimeVersion } : {}),
    bundle: checkedBundle(bundle, files.describe(layout.bundle)),
    from: { updateId: files.describe(manifest.relative), bundle: files.describe(layout.bundle) },
  };
}

/** An app directory's files; a missing file reads as undefined. */
function directoryFiles(platform: Platform, dir: string): AppFiles {
  return {
    platform,
    where: dir,
    describe: (relative) => path.join(dir, relative),
    async read(relative) {
      try {
        return await fs.readFile(path.join(dir, relative));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
        throw new CliError(`${path.join(dir, relative)} cannot be read: ${(error as Error).message}`);
      }
    },
  };
}

/** The one `.app` an .xcarchive holds, in Products/Applications. */
async function archivedApp(archive: string): Promise<string> {
  const dir = path.join(archive, 'Products', 'Applications');
  const apps = (await fs.readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.app'));
  if (apps.length !== 1) {
    throw new CliError(
      `${archive} should hold one app in Products/Applications; it holds ${apps.length === 0 ? 'none' : apps.join(', ')}.`,
    );
  }
  return path.join(dir, apps[0]!);
}

/** The one top-level `Payload/<X>.app/` of an .ipa (an extension's or watch app's .app sits deeper). */
function payloadApp(ipa: string, names: readonly string[]): string {
  const apps = [...new Set(names.flatMap((name) => /^Payload\/([^/]+\.app)\//.exec(name)?.[1] ?? []))];
  if (apps.length !== 1) {
    throw new CliError(
      `${ipa} should hold one app in Payload/; it holds ${apps.length === 0 ? 'none' : apps.join(', ')}. Is it an .ipa?`,
    );
  }
  return `Payload/${apps[0]}/`;
}

/** Reads from a zip archive, the app's files under `prefix`. */
async function fromArchive(
  file: string,
  platform: Platform,
  prefix: (names: readonly string[]) => string,
): Promise<EmbeddedUpdate> {
  return withZipArchive(file, async (archive) => {
    const root = prefix(archive.names);
    return readEmbedded({
      platform,
      where: file,
      describe: (relative) => `${root}${relative} in ${file}`,
      read: (relative) => archive.read(`${root}${relative}`),
    });
  });
}

/**
 * The embedded update of a build product: an iOS `.app`, `.xcarchive` or `.ipa`, or an Android
 * `.apk` or `.aab`. The platform is the product's.
 */
export async function readBuildProduct(input: string): Promise<EmbeddedUpdate> {
  const stat = await fs.stat(input).catch(() => undefined);
  if (!stat) throw new CliError(`${input} does not exist.`);
  const ending = path.extname(input.replace(/[/\\]+$/, '')).toLowerCase();
  const kind = BUILD_PRODUCTS.find((candidate) => candidate === ending);
  const isDirectoryKind = kind === '.app' || kind === '.xcarchive';
  if (!kind || isDirectoryKind !== stat.isDirectory()) {
    throw new CliError(
      `${input} is not a build product Ferry reads: an iOS .app or .xcarchive (directories) or .ipa, or an Android .apk or .aab. ` +
        'For other layouts pass --manifest <app.manifest> (or --update-id <uuid>) and --bundle <file> with --platform.',
    );
  }
  switch (kind) {
    case '.app':
      return readEmbedded(directoryFiles('ios', input));
    case '.xcarchive':
      return readEmbedded(directoryFiles('ios', await archivedApp(input)));
    case '.ipa':
      return fromArchive(input, 'ios', (names) => payloadApp(input, names));
    case '.apk':
      return fromArchive(input, 'android', () => '');
    case '.aab':
      return fromArchive(input, 'android', () => 'base/');
  }
}
