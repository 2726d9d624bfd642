import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { vi } from 'vitest';
import { CliError } from '../../src/cli-error.js';
import type { RegisterCommand } from '../../src/commands/index.js';

export interface CommandRun {
  /** The exit code `main()` would return. */
  code: number;
  stdout: string;
  stderr: string;
  /** What the command appended to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The step outputs it wrote to $GITHUB_OUTPUT. */
  outputs: Record<string, string>;
}

/** Parses the heredoc format @actions/core writes: `name<<delimiter\nvalue\ndelimiter`. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const match of text.matchAll(/^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    outputs[match[1] as string] = match[3] as string;
  }
  return outputs;
}

/**
 * Runs one command in-process as GitHub Actions would see it: stdout and stderr captured, and
 * $GITHUB_STEP_SUMMARY / $GITHUB_OUTPUT pointed at temporary files (removed afterwards).
 */
export async function runCommand(
  register: RegisterCommand,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CommandRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-gha-'));
  const summaryFile = path.join(dir, 'summary.md');
  const outputFile = path.join(dir, 'output');
  fs.writeFileSync(summaryFile, '');
  fs.writeFileSync(outputFile, '');
  vi.stubEnv('GITHUB_STEP_SUMMARY', summaryFile);
  vi.stubEnv('GITHUB_OUTPUT', outputFile);
  vi.stubEnv('OTA_SERVER_URL', undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  const program = new Command('ferry').exitOverride();
  register(program);
  let code = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    code = error instanceof CliError ? error.exitCode : 1;
    stderr += `ferry: ${error instanceof Error ? error.message : String(error)}\n`;
  } finally {
    out.mockRestore();
    err.mockRestore();
    vi.unstubAllEnvs();
  }
  const run = {
    code,
    stdout,
    stderr,
    summary: fs.readFileSync(summaryFile, 'utf8'),
    outputs: parseOutputs(fs.readFileSync(outputFile, 'utf8')),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return run;
}
