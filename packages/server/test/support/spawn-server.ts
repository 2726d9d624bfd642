import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const mainFile = path.join(repoRoot, 'packages/server/src/main.ts');
const builtBin = path.join(repoRoot, 'packages/server/bin/ferry-server.js');

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** Resolves with the listening URL, or rejects with everything printed if the process exits first. */
  listening: Promise<string>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the real entry point as a child process: its TypeScript source (through tsx, so a test sees
 * the sources as they are), or with `built` the built bin that `npm start` runs.
 */
export function spawnServer(env: Record<string, string>, options: { built?: boolean } = {}): SpawnedServer {
  const args = options.built ? [builtBin] : ['--conditions=@ferry/source', '--import', 'tsx', mainFile];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', ...env },
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
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
  return {
    child,
    output: () => out,
    listening,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
