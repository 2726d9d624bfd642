import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Platform } from '@ferry/contracts';
import { CliError } from '../cli-error.js';

/** Produces an export folder for the platforms; swapped for a fake in tests. */
export type Exporter = (projectRoot: string, platforms: Platform[]) => Promise<string>;

/**
 * The `npx` arguments of the export: one `--platform` per published platform, always. Without one,
 * `expo export` also renders the web app of Expo's default template (minutes of work for nothing
 * published, and a failed web render leaves no native bundles either).
 */
export function expoExportArgs(platforms: readonly Platform[], outputDir: string): string[] {
  if (platforms.length === 0) throw new CliError('no platform to export');
  return ['expo', 'export', ...platforms.flatMap((p) => ['--platform', p]), '--output-dir', outputDir];
}

/**
 * Runs `npx expo export` for the published platforms only, in the project into `<project>/dist`
 * (Expo's default). Its output goes to stderr so that stdout carries only the publisher's own report.
 */
export const runExpoExport: Exporter = async (projectRoot, platforms) => {
  const outputDir = path.join(projectRoot, 'dist');
  const args = expoExportArgs(platforms, outputDir);
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
