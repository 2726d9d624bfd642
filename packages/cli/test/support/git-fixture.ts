import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A fixed identity and no signing, so fixtures behave the same on every machine. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Ferry Test',
  GIT_AUTHOR_EMAIL: 'test@ferry.invalid',
  GIT_COMMITTER_NAME: 'Ferry Test',
  GIT_COMMITTER_EMAIL: 'test@ferry.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Files to write: text content, or null to delete. */
export type FileChanges = Record<string, string | null>;

/** A real git repository in a temporary directory, for tests that need commits and tags. */
export class GitFixture {
  private constructor(readonly dir: string) {}

  static async create(files: FileChanges = {}): Promise<GitFixture> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-git-'));
    const fixture = new GitFixture(dir);
    await fixture.git('init', '--quiet', '--initial-branch=main');
    await fixture.git('config', 'commit.gpgsign', 'false');
    await fixture.git('config', 'tag.gpgsign', 'false');
    if (Object.keys(files).length > 0) {
      fixture.write(files);
      await fixture.commit('initial');
    }
    return fixture;
  }

  async git(...args: string[]): Promise<string> {
    const { stdout } = await execFileAsync('git', args, { cwd: this.dir, env: { ...process.env, ...GIT_ENV } });
    return stdout.trim();
  }

  path(file: string): string {
    return path.join(this.dir, file);
  }

  read(file: string): string {
    return fs.readFileSync(this.path(file), 'utf8');
  }

  write(files: FileChanges): void {
    for (const [file, content] of Object.entries(files)) {
      const target = this.path(file);
      if (content === null) {
        fs.rmSync(target, { force: true, recursive: true });
      } else {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, content);
      }
    }
  }

  /** Stages everything and commits; returns the new commit's SHA. */
  async commit(message: string, files?: FileChanges): Promise<string> {
    if (files) this.write(files);
    await this.git('add', '--all');
    await this.git('commit', '--quiet', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  async tag(name: string, ref = 'HEAD'): Promise<void> {
    await this.git('tag', name, ref);
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
