import fs from 'node:fs/promises';
import path from 'node:path';
import { BumpError } from './bump-arithmetic.js';

/** Where an app keeps its release control values; the first that exists wins. */
export const RELEASE_CONTROL_CANDIDATES = [
  'release.config.js',
  'release.config.cjs',
  'release.config.mjs',
  'release.js',
  'release.cjs',
  'release.mjs',
];

const exists = (file: string) =>
  fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );

/** The release control file: the one given (relative to the project), or the first candidate found. */
export async function locateReleaseControlFile(projectRoot: string, explicit?: string): Promise<string> {
  if (explicit !== undefined) {
    const file = path.resolve(projectRoot, explicit);
    if (!(await exists(file))) throw new BumpError(`the release control file ${explicit} does not exist`);
    return file;
  }
  for (const candidate of RELEASE_CONTROL_CANDIDATES) {
    const file = path.join(projectRoot, candidate);
    if (await exists(file)) return file;
  }
  throw new BumpError(
    `no release control file in ${projectRoot} (looked for ${RELEASE_CONTROL_CANDIDATES.join(', ')}); pass --file <path>`,
  );
}
