/**
 * Release consoles left open during bench:manifest case (i): each signs in with a viewer token,
 * keeps the live-updates stream (`/api/console/events`) open as the console does, and reloads the
 * Tracks page's data every second, which is more than the console itself does (it reloads on an
 * event): the worst an open console costs the manifest path.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER_BIN = fileURLToPath(new URL('../bin/ferry-server.js', import.meta.url));
const POLL_MS = 1000;

/** A viewer token made with the installed server's own command, on the benchmark's DATA_DIR. */
export function createViewerToken(dataDir: string): string {
  const made = spawnSync(
    process.execPath,
    [SERVER_BIN, 'tokens', 'create', '--name', 'bench-console', '--role', 'viewer'],
    {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  const token = made.stdout.match(/ferry_op_[A-Za-z0-9_-]+/)?.[0];
  if (made.status !== 0 || !token) throw new Error(`ferry-server tokens create failed: ${made.stderr || made.stdout}`);
  return token;
}

export interface OpenConsoles {
  /** Track-list reloads answered 200 while open. */
  polls: () => number;
  /** Reloads answered otherwise, or failed. */
  failures: () => number;
  close: () => Promise<void>;
}

/** Opens `count` consoles on `base`; close() ends their streams and polling. */
export async function openConsoles(base: string, token: string, count: number): Promise<OpenConsoles> {
  const abort = new AbortController();
  let polls = 0;
  let failures = 0;
  const timers: NodeJS.Timeout[] = [];
  const streams: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const session = await fetch(`${base}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
      body: JSON.stringify({ token }),
    });
    const cookie = session.headers.get('set-cookie')?.split(';')[0];
    if (session.status !== 200 || !cookie) throw new Error(`console sign-in answered ${session.status}`);
    const events = await fetch(`${base}/api/console/events`, { headers: { cookie }, signal: abort.signal });
    if (events.status !== 200 || !events.body) throw new Error(`the console's event stream answered ${events.status}`);
    // Read the stream as a browser does, until it is closed.
    streams.push(
      (async () => {
        const reader = events.body!.getReader();
        try {
          // Heartbeats and track changes: nothing to do with them here.
          while (!(await reader.read()).done) {}
        } catch {
          // aborted on close
        }
      })(),
    );
    timers.push(
      setInterval(() => {
        fetch(`${base}/api/console/tracks`, { headers: { cookie }, signal: abort.signal })
          .then(async (answer) => {
            await answer.arrayBuffer();
            if (answer.status === 200) polls++;
            else failures++;
          })
          .catch(() => {
            if (!abort.signal.aborted) failures++;
          });
      }, POLL_MS),
    );
  }
  return {
    polls: () => polls,
    failures: () => failures,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      abort.abort();
      await Promise.all(streams);
    },
  };
}
