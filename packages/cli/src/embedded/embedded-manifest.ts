import { EmbeddedBundleQuery } from '@ferry/contracts';
import { CliError } from '../cli-error.js';

/**
 * What Ferry reads from a build's `app.manifest`, the manifest expo-updates writes at build time
 * (utils/build/createManifestForBuildAsync.js: `{ id, commitTime, assets }`) and embeds beside the
 * bundle. Its `id` is the embedded update's id: what devices running the build send as their
 * current update, so it is what a patch's base is found by.
 */
export interface EmbeddedManifest {
  /** The embedded update's id, a UUID. */
  id: string;
  /** Only when the manifest carries one; expo-updates' own build manifest does not. */
  runtimeVersion?: string;
}

/** Parses an app.manifest; `source` names where it was read, for the error messages. */
export function parseEmbeddedManifest(text: string, source: string): EmbeddedManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${source} is not JSON (${error instanceof Error ? error.message : String(error)}): it is not an expo-updates app.manifest.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`${source} is not a JSON object: it is not an expo-updates app.manifest.`);
  }
  const { id, runtimeVersion } = parsed as { id?: unknown; runtimeVersion?: unknown };
  if (id === undefined || id === null || id === '') {
    throw new CliError(
      `${source} has no "id": expo-updates writes the embedded update's id there, so this is not an app.manifest of a release build.`,
    );
  }
  const checked = EmbeddedBundleQuery.shape.updateId.safeParse(id);
  if (!checked.success) {
    throw new CliError(`${source} has the "id" ${JSON.stringify(id)}, not a UUID.`);
  }
  return {
    id: checked.data,
    ...(typeof runtimeVersion === 'string' && runtimeVersion !== '' ? { runtimeVersion } : {}),
  };
}
