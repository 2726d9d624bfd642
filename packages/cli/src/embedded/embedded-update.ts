import type { NonSharedBuffer } from 'node:buffer';
import fs from 'node:fs/promises';
import type { Platform } from '@ferry/contracts';
import { EmbeddedBundleQuery } from '@ferry/contracts';
import { CliError } from '../cli-error.js';
import { parseEmbeddedManifest } from './embedded-manifest.js';

/** A build's embedded update as `ferry embedded upload` registers it: its id and launch bundle. */
export interface EmbeddedUpdate {
  /** Known from a build product; for explicit files it is --platform's. */
  platform?: Platform;
  updateId: string;
  /** Only when the app.manifest carries one. */
  runtimeVersion?: string;
  bundle: NonSharedBuffer;
  /** Where the id and the bundle were read, for people. */
  from: { updateId: string; bundle: string };
}

const isMissing = (error: unknown) =>
  error instanceof Error && ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** A file's bytes; a missing one is a CliError that says what the file was for. */
export async function readRequiredFile(file: string, what: string): Promise<NonSharedBuffer> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if (isMissing(error)) throw new CliError(`${file} does not exist (${what}).`);
    throw new CliError(`${file} cannot be read (${what}): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The bundle devices launch; an empty one is no bundle (the server refuses it too). */
export function checkedBundle(bytes: NonSharedBuffer, source: string): NonSharedBuffer {
  if (bytes.length === 0) throw new CliError(`${source} is empty: it is not a launch bundle.`);
  return bytes;
}

export interface ExplicitFiles {
  /** --manifest: an app.manifest, whose id is the update id. */
  manifest?: string;
  /** --update-id: the id itself. */
  updateId?: string;
  /** --bundle: the launch bundle. */
  bundle: string;
}

/** `--manifest <file> --bundle <file>` or `--update-id <uuid> --bundle <file>`. */
export async function readExplicitFiles(files: ExplicitFiles): Promise<EmbeddedUpdate> {
  if ((files.manifest === undefined) === (files.updateId === undefined)) {
    throw new CliError(
      'With --bundle, give the update id with exactly one of --manifest <app.manifest> or --update-id <uuid>.',
    );
  }
  const bundle = checkedBundle(await readRequiredFile(files.bundle, 'the launch bundle'), files.bundle);
  if (files.manifest !== undefined) {
    const text = (await readRequiredFile(files.manifest, 'the app.manifest')).toString('utf8');
    const manifest = parseEmbeddedManifest(text, files.manifest);
    return {
      updateId: manifest.id,
      ...(manifest.runtimeVersion ? { runtimeVersion: manifest.runtimeVersion } : {}),
      bundle,
      from: { updateId: files.manifest, bundle: files.bundle },
    };
  }
  const checked = EmbeddedBundleQuery.shape.updateId.safeParse(files.updateId);
  if (!checked.success) throw new CliError(`--update-id ${JSON.stringify(files.updateId)} is not a UUID.`);
  return { updateId: checked.data, bundle, from: { updateId: '--update-id', bundle: files.bundle } };
}
