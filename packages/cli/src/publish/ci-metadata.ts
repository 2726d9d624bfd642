import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { RELEASE_MESSAGE_MAX_LENGTH } from '@ferry/contracts';
import type { Env } from './publish-environment.js';

/** metadata {commit, branch, actor, runId, message} of a release, as the server stores it. */
export interface CiMetadata {
  commit?: string;
  branch?: string;
  actor?: string;
  runId?: string;
  message?: string;
}

export interface GitReader {
  commit(): Promise<string | undefined>;
  branch(): Promise<string | undefined>;
  /** The subject (first line of the message) of a commit, HEAD when none is named; absent in readers that cannot tell. */
  subject?(commit?: string): Promise<string | undefined>;
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
    // `--end-of-options`: a commit named by the environment is never read as an option.
    subject: (commit) => git('log', '-1', '--format=%s', '--end-of-options', commit ?? 'HEAD'),
  };
}

const value = (raw: string | undefined) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim());

/**
 * A commit subject as a release message: its first line, other control characters as spaces (the
 * server refuses them), at most RELEASE_MESSAGE_MAX_LENGTH characters without splitting a character.
 */
export function messageFromSubject(raw: string | undefined): string | undefined {
  const line = raw
    ?.split(/\r?\n/, 1)[0]
    ?.replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .trim();
  if (!line) return undefined;
  if (line.length <= RELEASE_MESSAGE_MAX_LENGTH) return line;
  let cut = '';
  for (const character of line) {
    if (cut.length + character.length > RELEASE_MESSAGE_MAX_LENGTH - 1) break;
    cut += character;
  }
  return `${cut}…`;
}

/**
 * The subject of the published commit, from CI variables when git cannot tell (no checkout, or a
 * shallow one without that commit): GitHub Actions' push event (`head_commit` in
 * GITHUB_EVENT_PATH, when it is that commit), GitLab's CI_COMMIT_TITLE, Buildkite's BUILDKITE_MESSAGE.
 */
export function subjectFromCiEnvironment(env: Env, commit: string | undefined): string | undefined {
  const eventPath = value(env.GITHUB_EVENT_PATH);
  if (eventPath) {
    try {
      const event = JSON.parse(fs.readFileSync(eventPath, 'utf8')) as {
        head_commit?: { id?: unknown; message?: unknown };
      };
      const head = event.head_commit;
      if (typeof head?.message === 'string' && (commit === undefined || head.id === commit)) return head.message;
    } catch {
      // An unreadable event file says nothing about the message.
    }
  }
  return value(env.CI_COMMIT_TITLE) ?? value(env.BUILDKITE_MESSAGE);
}

/**
 * GitHub Actions variables first; git answers for commit and branch when they are absent. The
 * message is the subject of that commit (git first, then the CI's variables); `message` (from
 * `--message`) replaces it, and an empty one leaves the release without a message.
 */
export async function readCiMetadata(env: Env, git: GitReader, message?: string): Promise<CiMetadata> {
  const commit = value(env.GITHUB_SHA) ?? (await git.commit());
  const subject =
    message === undefined
      ? messageFromSubject((await git.subject?.(commit)) ?? subjectFromCiEnvironment(env, commit))
      : message || undefined;
  const metadata: CiMetadata = {
    commit,
    branch: value(env.GITHUB_REF_NAME) ?? (await git.branch()),
    actor: value(env.GITHUB_ACTOR),
    runId: value(env.GITHUB_RUN_ID),
    message: subject,
  };
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined)) as CiMetadata;
}
