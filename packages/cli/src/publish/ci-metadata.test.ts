import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitReader, readCiMetadata } from './ci-metadata.js';

const noGit = { commit: async () => undefined, branch: async () => undefined };
const git = { commit: async () => 'from-git', branch: async () => 'git-branch' };

describe('readCiMetadata', () => {
  it.each([
    [
      'GitHub Actions variables win',
      { GITHUB_SHA: 'sha', GITHUB_REF_NAME: 'main', GITHUB_ACTOR: 'octocat', GITHUB_RUN_ID: '7' },
      git,
      { commit: 'sha', branch: 'main', actor: 'octocat', runId: '7' },
    ],
    ['git fills commit and branch only', {}, git, { commit: 'from-git', branch: 'git-branch' }],
    [
      'empty variables count as absent',
      { GITHUB_SHA: '', GITHUB_ACTOR: ' ' },
      git,
      { commit: 'from-git', branch: 'git-branch' },
    ],
    ['nothing known → empty metadata', {}, noGit, {}],
  ])('%s', async (_name, env, reader, expected) => {
    expect(await readCiMetadata(env, reader)).toEqual(expected);
  });
});

describe('gitReader', () => {
  let repo: string;
  beforeAll(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-git-'));
    const run = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    run('init', '-q', '-b', 'release/1.4');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a');
    run('add', 'a.txt');
    run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'first');
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('reads HEAD and the branch of a repository', async () => {
    const reader = gitReader(repo);
    expect(await reader.commit()).toMatch(/^[0-9a-f]{40}$/);
    expect(await reader.branch()).toBe('release/1.4');
  });

  it('a detached HEAD has no branch', async () => {
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: repo });
    expect(await gitReader(repo).branch()).toBeUndefined();
  });

  it('outside a repository both are unknown', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-nogit-'));
    try {
      const reader = gitReader(outside);
      expect(await reader.commit()).toBeUndefined();
      expect(await reader.branch()).toBeUndefined();
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
