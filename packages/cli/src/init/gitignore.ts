import { GITIGNORE_BLOCK } from './app-files.js';

/** The first line of Ferry's block: how a second `ferry init` sees the block is already there. */
const MARKER = GITIGNORE_BLOCK.split('\n')[0]!;

/**
 * .gitignore with Ferry's block at the end: the certificate re-included (Expo's templates ignore
 * `*.pem`, so without it the certificate the docs tell a team to commit never is), the private key
 * ignored. At the end because in a .gitignore the last matching line wins. A .gitignore that has
 * the block already is returned as it is.
 */
export function withFerryIgnores(current: string | undefined): string {
  if (current === undefined || current === '') return GITIGNORE_BLOCK;
  if (current.split('\n').includes(MARKER)) return current;
  const separated = current.endsWith('\n\n') ? current : current.endsWith('\n') ? `${current}\n` : `${current}\n\n`;
  return `${separated}${GITIGNORE_BLOCK}`;
}
