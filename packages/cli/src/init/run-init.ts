import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { createTwoFilesPatch } from 'diff';
import { CliError } from '../cli-error.js';
import { type InitOptions, type InitPlan, type PlannedFile, planInit } from './init-plan.js';

/** A unified diff of one planned file (a new file against /dev/null); the private key is never shown. */
export function renderChange(file: PlannedFile): string {
  if (file.secret) {
    return `--- /dev/null\n+++ b/${file.path}\n(new file, mode 0600: ${file.why}; not shown)\n`;
  }
  return createTwoFilesPatch(
    file.before === undefined ? '/dev/null' : `a/${file.path}`,
    `b/${file.path}`,
    file.before ?? '',
    file.after,
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^=+\n/, '');
}

/** The whole plan as people read it: one unified diff per file, what is kept, what comes next. */
export function renderPlan(plan: InitPlan): string {
  const lines: string[] = [];
  for (const file of plan.files) lines.push(`# ${file.path}: ${file.why}`, renderChange(file).trimEnd(), '');
  for (const kept of plan.kept) lines.push(`kept: ${kept}`);
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Writes the planned files; the private key with mode 0600. */
export function applyPlan(projectRoot: string, plan: InitPlan): void {
  for (const file of plan.files) {
    const target = path.join(projectRoot, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (file.secret) {
      fs.writeFileSync(target, file.after, { mode: 0o600 });
      fs.chmodSync(target, 0o600);
    } else {
      fs.writeFileSync(target, file.after);
    }
  }
}

/** Asks a yes/no question on a terminal; anything but y/yes is no. */
export async function askOnTerminal(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

export interface InitRun {
  out: { write(text: string): unknown };
  /** --yes: write without asking (CI). */
  yes: boolean;
  /** Whether a person can answer (stdin and stdout are terminals). */
  interactive: boolean;
  ask: (question: string) => Promise<boolean>;
}

/**
 * `ferry init`: plans, shows the diff, and writes only with consent (`--yes`, or "y" on a
 * terminal). Without a terminal and without `--yes` it changes nothing and exits 1, so a CI step
 * never edits an app by surprise. Returns the plan (applied or not).
 */
export async function runInit(options: InitOptions, run: InitRun): Promise<{ plan: InitPlan; applied: boolean }> {
  const plan = planInit(options);
  const say = (text: string) => run.out.write(text.endsWith('\n') ? text : `${text}\n`);
  const nextSteps = () => {
    if (plan.nextSteps.length === 0) return;
    say('\nNext:');
    for (const step of plan.nextSteps) say(`  - ${step}`);
  };
  if (plan.files.length === 0) {
    say(renderPlan(plan));
    say(`Ferry is set up in ${options.projectRoot}: nothing to change.`);
    nextSteps();
    return { plan, applied: false };
  }
  say(renderPlan(plan));
  const summary = `${plan.files.length} file(s) to write in ${options.projectRoot}`;
  let consent = run.yes;
  if (!consent && run.interactive) consent = await run.ask(`${summary}. Write them? [y/N] `);
  if (!consent) {
    throw new CliError(
      run.interactive
        ? 'Nothing was changed.'
        : `Nothing was changed (${summary}): run \`ferry init --yes\` to write them, or run it on a terminal to be asked.`,
    );
  }
  applyPlan(options.projectRoot, plan);
  say(`Wrote ${plan.files.map((file) => file.path).join(', ')}.`);
  nextSteps();
  return { plan, applied: true };
}
