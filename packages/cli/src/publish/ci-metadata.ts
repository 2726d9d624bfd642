import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Env } from './publish-environment.js';

/** metadata {commit, branch, actor, runId} of a release, as the server stores it. */
export interface CiMetadata {
  commit?: string;
  branch?: string;
  actor?: string;
  runId?: string;
}

export interface GitReader {
  commit(): Promise<string | undefined>;
  branch(): Promise<string | undefined>;
}

const run = promisify(execFile);

/** Reads HEAD of the repository that holds `cwd`; undefined when git or the repository is absent. */
export function gitReader(cwd: string): GitReader {
  const git = async (...args: string[]) => {
    try {
      const { stdout } = await run('git', args, { cwd });
      const value = stdout.trim();
      return value === '' || value === 'HEAD' ? undefined : value;
    } catch {
      return undefined;
    }
  };
  return {
    commit: () => git('rev-parse', 'HEAD'),
    // "HEAD" (a detached checkout, as CI often has) says nothing, so it counts as unknown.
    branch: () => git('rev-parse', '--abbrev-ref', 'HEAD'),
  };
}

const value = (raw: string | undefined) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim());

/** GitHub Actions variables first; git answers for commit and branch when they are absent. */
export async function readCiMetadata(env: Env, git: GitReader): Promise<CiMetadata> {
  const metadata: CiMetadata = {
    commit: value(env.GITHUB_SHA) ?? (await git.commit()),
    branch: value(env.GITHUB_REF_NAME) ?? (await git.branch()),
    actor: value(env.GITHUB_ACTOR),
    runId: value(env.GITHUB_RUN_ID),
  };
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined)) as CiMetadata;
}
