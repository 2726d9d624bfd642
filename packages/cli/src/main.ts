import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { COMMANDS } from './commands/index.js';

/** This package's version: ../package.json from src/ (checkout) and from dist/ (installed) alike. */
const VERSION = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Builds the `ferry` program; each command lives in its own file under commands/. */
export function buildProgram(): Command {
  const program = new Command('ferry')
    .description('Ferry: OTA releases for Expo apps, and electronic certificate tooling')
    .version(VERSION, '-v, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError();
  for (const register of COMMANDS) register(program);
  return program;
}

/** Runs the CLI and returns the exit code (0 success, 1 error, other codes per command). */
export async function main(argv: string[], program: Command = buildProgram()): Promise<number> {
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof CliError) {
      process.stderr.write(`ferry: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`ferry: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
