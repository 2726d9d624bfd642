import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A git command failed; the message carries git's own stderr (refs and paths only, never secrets). */
export class GitError extends Error {
  override name = 'GitError';
}

/** Runs git in `cwd` and returns its stdout; large outputs (whole-tree listings) are allowed. */
export async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new GitError(`git ${args[0]} failed: ${stderr || (error instanceof Error ? error.message : String(error))}`);
  }
}

const ZERO_SHA = /^0+$/;

/**
 * The commit a ref names, or undefined when the repository does not know it (a shallow clone, a
 * typo, or the all-zero SHA GitHub sends as `before` for a new branch).
 */
export async function resolveCommit(cwd: string, ref: string): Promise<string | undefined> {
  if (ref === '' || ZERO_SHA.test(ref) || ref.startsWith('-')) return undefined;
  try {
    return (await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch {
    return undefined;
  }
}

/** The top of the working tree that contains `cwd`. */
export async function repositoryRoot(cwd: string): Promise<string> {
  return (await git(cwd, ['rev-parse', '--show-toplevel'])).trim();
}

/** `cwd` relative to the repository root, with a trailing slash ('' at the root). */
export async function prefixInRepository(cwd: string): Promise<string> {
  return (await git(cwd, ['rev-parse', '--show-prefix'])).trim();
}

/** Every path whose content, mode or existence differs between two commits; renames count twice. */
export async function changedPaths(cwd: string, base: string, head: string): Promise<string[]> {
  const out = await git(cwd, ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', base, head, '--']);
  return out.split('\0').filter(Boolean);
}

/** Every file path in a commit (repository-relative). */
export async function listTree(cwd: string, commit: string): Promise<string[]> {
  const out = await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', commit]);
  return out.split('\0').filter(Boolean);
}

/** A file's text at a commit, or undefined when it does not exist there. */
export async function readAt(cwd: string, commit: string, path: string): Promise<string | undefined> {
  try {
    return await git(cwd, ['show', `${commit}:${path}`]);
  } catch {
    return undefined;
  }
}

/** Tag names matching a glob. */
export async function listTags(cwd: string, pattern: string): Promise<string[]> {
  const out = await git(cwd, ['tag', '--list', pattern]);
  return out.split('\n').filter(Boolean);
}
