/**
 * Whether a stopped server is really gone: nothing accepts connections on its port any more, and
 * no process of the group it was started in is left running (a server orphaned by a wrapper that
 * died, npm's shell for instance, would still be there). Both are read as they are now; tests poll
 * them (expect.poll), never wait a fixed time.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { cleanEnv, freePort, start, waitUntilReady } from '../e2e/support/sandbox.js';

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
export function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The processes of process group `pgid` that still run (zombies, which have exited and wait only
 * to be reaped, are not counted), as "pid command" lines. Linux: read from /proc.
 */
export function runningInGroup(pgid: number): string[] {
  const running: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
    let command = '';
    try {
      command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      // gone meanwhile
    }
    running.push(`${entry} ${command}`);
  }
  return running;
}

/** How the signal is sent: to the started process alone (kill, a supervisor), or to its group (Ctrl-C). */
export type Target = 'process' | 'group';

/**
 * Starts `command` (an OTA-only server in development, on a free port) as an operator would, waits
 * until /readyz answers, sends `signal`, then waits until the port refuses connections and nothing
 * of the process group is left; the server must have logged its shutdown. Returns what it printed
 * and the started process's exit code.
 */
export async function startAndStop(
  command: string,
  args: string[],
  options: {
    cwd: string;
    /** A folder of the test's own: each start gets a fresh DATA_DIR in it. */
    work: string;
    signal: NodeJS.Signals;
    target: Target;
    env?: Record<string, string>;
  },
): Promise<{ output: string; exitCode: Promise<number | null> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(options.work, 'data-'));
  // Nothing of this process's configuration (a DATABASE_URL, OTA_ secrets) reaches the server.
  const env = cleanEnv();
  for (const key of Object.keys(env)) {
    if (/^(OTA_|CERT_|AUTH_|VENDOR_|DATABASE_|REDIS_|OBJECT_|S3_|FERRY_|METRICS_)/.test(key)) delete env[key];
  }
  const server = start(command, args, {
    cwd: options.cwd,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, FERRY_AREAS: 'ota', ...options.env },
  });
  await waitUntilReady(`http://127.0.0.1:${port}/readyz`, server.exited, server.output);
  const pgid = server.child.pid as number;
  process.kill(options.target === 'group' ? -pgid : pgid, options.signal);
  await expect.poll(() => accepting(port)).toBe(false);
  await expect.poll(() => runningInGroup(pgid)).toEqual([]);
  expect(server.output()).toMatch(/"msg":"shutting down: finishing in-flight requests"/);
  return { output: server.output(), exitCode: server.exited };
}
