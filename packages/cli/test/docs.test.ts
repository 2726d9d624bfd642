import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/main.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** Every command the CLI registers, as its path (`keys generate`), with its long options. */
function commandsOf(command: Command, prefix: string[] = []): Array<{ path: string; options: string[] }> {
  return command.commands.flatMap((sub) => {
    const here = [...prefix, sub.name()];
    const own = sub.commands.length > 0 ? [] : [{ path: here.join(' '), options: sub.options.map((o) => o.long!) }];
    return [...own, ...commandsOf(sub, here)];
  });
}

/**
 * Where each command is documented: the guide a user reads for it. A command registered without a
 * home, or an option its home never names, fails below, so the docs cannot drift from the CLI.
 */
const HOMES: Record<string, string[]> = {
  'native-affected': ['docs/pipeline.md'],
  gate: ['docs/pipeline.md'],
  bump: ['docs/pipeline.md'],
  'deploy-check': ['docs/pipeline.md'],
  publish: ['docs/publishing.md'],
  releases: ['docs/publishing.md'],
  rollback: ['docs/publishing.md'],
  rollout: ['docs/publishing.md'],
  promote: ['docs/publishing.md'],
  'embedded upload': ['docs/publishing.md'],
  audit: ['docs/publishing.md'],
  'keys generate': ['docs/publishing.md'],
  gc: ['docs/gc.md'],
  init: ['docs/add-to-an-app.md'],
  doctor: ['docs/add-to-an-app.md'],
  'dev-token': ['docs/certificates.md'],
  'vendor-sim': ['docs/certificates.md'],
};

/** The words as a whole: `--halt-min-devices`, not the `--halt` inside it; `ferry rollout`, not `ferry rollouts`. */
const names = (text: string, words: string) =>
  new RegExp(`(?<![\\w-])${words.replace(/[-]/g, '\\-')}(?![\\w-])`).test(text);

/** The problems of one guide: the command not named, options not named. */
function undocumented(doc: string, text: string, command: { path: string; options: string[] }): string[] {
  const problems: string[] = [];
  if (!names(text, `ferry ${command.path}`)) problems.push(`${doc} never names \`ferry ${command.path}\``);
  for (const option of command.options) {
    if (!names(text, option)) problems.push(`${doc} never names ${option} of \`ferry ${command.path}\``);
  }
  return problems;
}

describe('every ferry command and option is in its guide', () => {
  const commands = commandsOf(buildProgram());

  it('every command has a guide', () => {
    expect(commands.map((command) => command.path).filter((name) => !HOMES[name])).toEqual([]);
  });

  it.each(commands.map((command) => [command.path, command] as const))('ferry %s', (_, command) => {
    const problems = (HOMES[command.path] ?? []).flatMap((doc) => undocumented(doc, read(doc), command));
    expect(problems).toEqual([]);
  });

  it('the pipeline guide names ferry embedded upload, which its Store deploy template runs', () => {
    expect(names(read('docs/pipeline.md'), 'ferry embedded upload')).toBe(true);
  });

  it('the pipeline guide names ferry rollout and the staged-rollout options of ferry publish', () => {
    const pipeline = read('docs/pipeline.md');
    for (const words of ['ferry rollout', '--rollout', '--halt-on-failure-rate', '--halt-min-devices'])
      expect(names(pipeline, words), words).toBe(true);
  });

  it('the check itself catches a missing command and a missing option', () => {
    const command = { path: 'rollout', options: ['--percent', '--revert'] };
    expect(undocumented('x.md', 'ferry rollout <id> --percent 5 --reverted', command)).toEqual([
      'x.md never names --revert of `ferry rollout`',
    ]);
    expect(undocumented('x.md', 'ferry rollouts --percent --revert', command)).toEqual([
      'x.md never names `ferry rollout`',
    ]);
  });
});

/** What a newcomer copies: every guide, the packages' and the example app's READMEs and templates. */
function guides(): string[] {
  const list = (dir: string, pattern: RegExp): string[] =>
    fs
      .readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && pattern.test(entry.name) && !entry.parentPath.includes('node_modules'))
      .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
  return [
    'README.md',
    ...list('docs', /\.md$/),
    ...fs.readdirSync(path.join(repoRoot, 'packages')).map((name) => `packages/${name}/README.md`),
    ...list('examples/expo-app', /\.(md|ya?ml)$|^package\.json$/),
  ].filter((file) => fs.existsSync(path.join(repoRoot, file)));
}

/**
 * `expo export` commands that name no platform. Without `--platform` the export also renders the
 * web app of Expo's default template: minutes, and nothing a Ferry release carries. A command is
 * `npx expo export …`, or `expo export …` in a package.json script or at the start of a code line.
 */
export function bareExports(text: string): string[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  const commands = [
    ...joined.matchAll(/npx(?: --no-install| --yes| -y)? expo export\b[^\n`]*/g),
    ...joined.matchAll(/(?:"|^\s*(?:\$ )?)expo export\b[^\n`"]*/gm),
  ].map((match) => match[0].trim());
  return commands.filter((command) => !/--platform[ =](ios|android|<p>)/.test(command));
}

describe('no guide tells a user to run expo export without --platform', () => {
  it('the check itself', () => {
    expect(bareExports('run `npx expo export` first')).toEqual(['npx expo export']);
    expect(bareExports('```sh\nexpo export --output-dir dist\n```')).toEqual(['expo export --output-dir dist']);
    expect(bareExports('"export": "expo export"')).toEqual(['"expo export']);
    expect(bareExports('npx expo export \\\n  --output-dir dist')).toHaveLength(1);
    expect(bareExports('npx expo export --platform ios --platform android')).toEqual([]);
    expect(bareExports('"export": "expo export --platform ios --platform android"')).toEqual([]);
    expect(bareExports('a real `expo export` of both platforms')).toEqual([]);
  });

  it.each(guides())('%s', (file) => {
    expect(bareExports(read(file))).toEqual([]);
  });
});
