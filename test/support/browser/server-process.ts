import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

/** Node arguments that run a TypeScript file with workspace packages resolved to their sources. */
export const FROM_SOURCES = ['--conditions=@ferry/source', '--import', 'tsx'];

export interface ServerProcess<Address> {
  /** The JSON line the server printed once it listened. */
  address: Address;
  child: ChildProcess;
  /** Sends SIGTERM and resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts a server a browser suite drives: `script`, a TypeScript file, in a Node process of its own
 * (NODE_ENV=test, this environment plus `env`). Its log (stderr) goes to `logFile`; on stdout it
 * prints one JSON line with its addresses once it listens, which is what this waits for: readiness
 * as the server reports it, never a fixed time. Rejects if the process exits first.
 */
export async function startServerProcess<Address>(
  script: string,
  options: { cwd: string; logFile: string; env?: NodeJS.ProcessEnv },
): Promise<ServerProcess<Address>> {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const child = spawn(process.execPath, [...FROM_SOURCES, script], {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', log],
    env: { ...process.env, NODE_ENV: 'test', ...options.env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => fs.closeSync(log));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (first) => {
      lines.close();
      resolve(first);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}); see ${options.logFile}`)));
  });
  return {
    address: JSON.parse(line) as Address,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
