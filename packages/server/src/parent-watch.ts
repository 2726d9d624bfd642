/**
 * Whether the server should stop when the process that started it goes away. npm runs a script
 * (`npm start`, `npx ferry-server`) as `sh -c <command>`, and npm forwards SIGTERM and SIGINT to that
 * shell only. Where /bin/sh is dash (Debian, Ubuntu, the node images) the shell does not exec its
 * last command: on SIGTERM it dies and leaves the server running as an orphan, and SIGINT it holds
 * until its child exits. npm marks every process it runs with npm_lifecycle_event, so a server
 * started by npm treats its parent's exit as SIGTERM. Started any other way (node directly, a
 * container's PID 1, systemd, nohup), its parent's exit means nothing and is not watched.
 */
export function shouldWatchParent(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/** How often the parent is looked at: a getppid() call, so shutdown starts within this of the parent's exit. */
const WATCH_INTERVAL_MS = 500;

/**
 * Calls `onGone` once when the parent process has exited: the process is then re-parented (to PID 1
 * or a subreaper), so its parent id changes. Linux has no portable event for it in Node; the check
 * is a timer that never keeps the process alive. Returns a function that stops watching.
 */
export function watchParent(
  onGone: () => void,
  options: { parentId?: () => number; intervalMs?: number } = {},
): () => void {
  const parentId = options.parentId ?? (() => process.ppid);
  const first = parentId();
  const timer = setInterval(() => {
    if (parentId() === first) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
