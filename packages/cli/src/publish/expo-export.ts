import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Platform } from '@ferry/contracts';
import { CliError } from '../cli-error.js';

/** Produces an export folder for the platforms; swapped for a fake in tests. */
export type Exporter = (projectRoot: string, platforms: Platform[]) => Promise<string>;

/**
 * Runs `npx expo export` in the project into `<project>/dist` (Expo's default). Its output goes to
 * stderr so that stdout carries only the publisher's own report.
 */
export const runExpoExport: Exporter = async (projectRoot, platforms) => {
  const outputDir = path.join(projectRoot, 'dist');
  const args = ['expo', 'export', ...platforms.flatMap((p) => ['--platform', p]), '--output-dir', outputDir];
  process.stderr.write(`$ npx ${args.join(' ')}\n`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn('npx', args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    child.stdout.pipe(process.stderr, { end: false });
    child.on('error', reject);
    child.on('close', (status) => resolve(status ?? 1));
  });
  if (code !== 0) throw new CliError(`npx expo export failed with exit code ${code}.`);
  return outputDir;
};
