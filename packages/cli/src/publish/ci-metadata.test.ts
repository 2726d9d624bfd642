import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RELEASE_MESSAGE_MAX_LENGTH, ReleaseMetadataInput } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitReader, messageFromSubject, readCiMetadata, subjectFromCiEnvironment } from './ci-metadata.js';

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

describe('the release message', () => {
  const subjects = (answers: Record<string, string>) => ({
    ...git,
    asked: [] as Array<string | undefined>,
    async subject(commit?: string) {
      this.asked.push(commit);
      return commit === undefined ? undefined : answers[commit];
    },
  });

  it('is the subject of the commit the release records: GITHUB_SHA, else HEAD', async () => {
    const reader = subjects({ sha: 'Fix login', 'from-git': 'Local change' });
    expect((await readCiMetadata({ GITHUB_SHA: 'sha' }, reader)).message).toBe('Fix login');
    expect((await readCiMetadata({}, reader)).message).toBe('Local change');
    expect(reader.asked).toEqual(['sha', 'from-git']);
  });

  it('--message replaces it, and an empty --message leaves the release without one', async () => {
    const reader = subjects({ sha: 'Fix login' });
    expect((await readCiMetadata({ GITHUB_SHA: 'sha' }, reader, 'Hotfix for 1.4')).message).toBe('Hotfix for 1.4');
    expect(await readCiMetadata({ GITHUB_SHA: 'sha' }, reader, '')).not.toHaveProperty('message');
    expect(reader.asked).toEqual([]);
  });

  it('falls back to the CI variables when git cannot tell', async () => {
    const reader = subjects({});
    expect((await readCiMetadata({ GITHUB_SHA: 'sha', CI_COMMIT_TITLE: 'GitLab title' }, reader)).message).toBe(
      'GitLab title',
    );
    expect((await readCiMetadata({ BUILDKITE_MESSAGE: 'Buildkite\n\nbody' }, noGit)).message).toBe('Buildkite');
    expect(await readCiMetadata({}, noGit)).not.toHaveProperty('message');
  });

  describe("GitHub Actions' push event", () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-event-'));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const eventFile = (event: unknown) => {
      const file = path.join(dir, `${Math.random()}.json`);
      fs.writeFileSync(file, typeof event === 'string' ? event : JSON.stringify(event));
      return file;
    };

    it.each([
      [
        'the head commit is the published one',
        { head_commit: { id: 'sha', message: 'Push subject\n\nbody' } },
        'Push subject\n\nbody',
      ],
      ['another commit', { head_commit: { id: 'other', message: 'Not this one' } }, undefined],
      ['no head commit (a workflow_dispatch)', { inputs: {} }, undefined],
      ['not JSON', 'nope', undefined],
    ])('%s', (_name, event, expected) => {
      expect(subjectFromCiEnvironment({ GITHUB_EVENT_PATH: eventFile(event) }, 'sha')).toBe(expected);
    });

    it('a missing event file says nothing', () => {
      expect(subjectFromCiEnvironment({ GITHUB_EVENT_PATH: path.join(dir, 'missing.json') }, 'sha')).toBeUndefined();
    });
  });

  describe('messageFromSubject', () => {
    it.each([
      ['a plain subject', 'Fix the login screen', 'Fix the login screen'],
      ['the first line only', 'Subject\r\n\nBody text', 'Subject'],
      ['control characters become spaces', 'a\tb\u001b[31mc\u0000d', 'a b [31mc d'],
      ['a lone surrogate becomes U+FFFD', 'a\ud800b', 'a\ufffdb'],
      ['surrounding space is dropped', '  spaced  ', 'spaced'],
      ['nothing left', ' \t ', undefined],
      ['absent', undefined, undefined],
    ])('%s', (_name, raw, expected) => {
      expect(messageFromSubject(raw)).toBe(expected);
    });

    it(`cuts a long subject to ${RELEASE_MESSAGE_MAX_LENGTH} characters, never inside a character`, () => {
      const exact = 'x'.repeat(RELEASE_MESSAGE_MAX_LENGTH);
      expect(messageFromSubject(exact)).toBe(exact);
      const long = `${'x'.repeat(RELEASE_MESSAGE_MAX_LENGTH - 2)}😀😀😀`;
      const cut = messageFromSubject(long)!;
      expect(cut.length).toBeLessThanOrEqual(RELEASE_MESSAGE_MAX_LENGTH);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
      // Whatever it makes, the server accepts.
      for (const raw of [long, 'a\u0000b', 'a\ud800b', 'x'.repeat(5000)]) {
        expect(ReleaseMetadataInput.safeParse({ message: messageFromSubject(raw) }).success).toBe(true);
      }
    });
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

  it('reads the subject of HEAD or of a named commit; an unknown commit has none', async () => {
    const reader = gitReader(repo);
    const first = await reader.commit();
    const run = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    fs.writeFileSync(path.join(repo, 'b.txt'), 'b');
    run('add', 'b.txt');
    run('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'second: ünïcode\n\nbody');
    expect(await reader.subject!()).toBe('second: ünïcode');
    expect(await reader.subject!(first)).toBe('first');
    expect(await reader.subject!('0'.repeat(40))).toBeUndefined();
    expect(await reader.subject!('--version')).toBeUndefined();
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
