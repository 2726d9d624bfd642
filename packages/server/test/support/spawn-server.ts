import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntilReady } from '../../../../test/e2e/support/sandbox.js';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const mainFile = path.join(repoRoot, 'packages/server/src/main.ts');
const builtBin = path.join(repoRoot, 'packages/server/bin/ferry-server.js');

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /**
   * Resolves once the output matches `pattern` (at once if it already does), or rejects with
   * everything printed if the process exits first. An event wait with no deadline of its own: the
   * test's hang guard bounds it.
   */
  waitForOutput(pattern: RegExp): Promise<void>;
  /** Resolves with the listening URL, or rejects with everything printed if the process exits first. */
  listening: Promise<string>;
  /**
   * Resolves with the URL once /readyz answers 2xx (the start-up work done), as a load balancer
   * waits; rejects with everything printed if the process exits first.
   */
  ready(): Promise<string>;
  /** The exit code, once the process has exited and everything it printed has been read. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the real entry point as a child process: its TypeScript source (through tsx, so a test sees
 * the sources as they are), or with `built` the built bin that `npm start` runs.
 */
export function spawnServer(
  env: Record<string, string>,
  options: {
    built?: boolean;
    /** A command that runs the server's command line (e.g. one that moves it into a cgroup first). */
    wrapper?: string[];
  } = {},
): SpawnedServer {
  const args = options.built ? [builtBin] : ['--conditions=@ferry/source', '--import', 'tsx', mainFile];
  const [command, ...commandArgs] = [...(options.wrapper ?? []), process.execPath, ...args] as [string, ...string[]];
  const child = spawn(command, commandArgs, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      // A loaded machine may drain slowly: the test's hang guard, not the production grace, bounds it.
      SHUTDOWN_GRACE_MS: String(HANG_GUARD_MS),
      ...env,
    },
  });
  let out = '';
  // On 'close', not 'exit': 'exit' may come before the last output has been read, and a test that
  // checks what a failed start printed must see all of it, however busy the machine.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waiters = new Set<() => void>();
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      for (const check of waiters) check();
      // The vendor simulators log their own "Server listening" lines, tagged with `simulator`.
      for (const line of out.split('\n')) {
        if (!line.startsWith('{') || line.includes('"simulator"')) continue;
        const match = /"msg":"Server listening at (http:\/\/[\d.]+:\d+)"/.exec(line);
        if (match?.[1]) resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  listening.catch(() => {});
  const waitForOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.search(pattern) === -1) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        if (!waiters.delete(check)) return;
        reject(new Error(`server exited before printing ${pattern}:\n${out}`));
      });
    });
  return {
    child,
    output: () => out,
    waitForOutput,
    listening,
    ready: async () => {
      const url = await listening;
      await waitUntilReady(`${url}/readyz`, exited, () => out);
      return url;
    },
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
