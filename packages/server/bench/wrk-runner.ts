/**
 * Runs wrk (https://github.com/wg/wrk, Debian package `wrk`) for the benchmarks and reads its
 * result from the JSON line its script's done() prints (wrk/manifest.lua), not from its text
 * report. Also reads, from /proc, how much CPU wrk and the loaded server used during the run: a
 * load generator near a whole core, or a server well below one, means the figure measures wrk or
 * the machine rather than the server.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkOptions {
  url: string;
  /** A Lua script whose done() prints the JSON line (see wrk/manifest.lua). */
  script: string;
  /** Passed to the script's init(args), after `--`. */
  scriptArgs?: string[];
  seconds: number;
  connections: number;
  threads: number;
  /** The loaded server's process id, for its CPU share during the run. */
  serverPid?: number;
}

export interface WrkResult {
  requests: number;
  /** How long wrk measured, as it reports it. */
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors (connect, read, write), timeouts, and answers with a status of 400 or more. */
  errors: { connect: number; read: number; write: number; timeout: number; status: number };
  errorCount: number;
  /** Share of one core wrk used (undefined where /proc is missing). */
  wrkCores: number | undefined;
  /** Share of one core the server process used. */
  serverCores: number | undefined;
}

interface WrkSummary {
  wrk_summary: 1;
  requests: number;
  duration_us: number;
  errors: WrkResult['errors'];
  latency_us: { p50: number; p99: number; max: number };
}

/** True when a `wrk` executable is on PATH. */
export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * CPU time in ms from /proc/<pid>/stat: the process's own (utime + stime) or, with `children`, that
 * of its children it has waited for (cutime + cstime). /proc counts in USER_HZ, 100 per second.
 */
function cpuMs(pid: number | 'self', children = false): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name in parentheses (which may hold spaces) start at field 3.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
    return user === undefined || system === undefined ? undefined : (user + system) * 10;
  } catch {
    return undefined;
  }
}

function parseSummary(stdout: string): WrkSummary {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"wrk_summary"'));
  if (!line) throw new Error(`wrk printed no summary line (is done() in the script?):\n${stdout.slice(-500)}`);
  return JSON.parse(line) as WrkSummary;
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const args = [
    `--threads=${options.threads}`,
    `--connections=${options.connections}`,
    `--duration=${options.seconds}s`,
    '--timeout=2s',
    `--script=${options.script}`,
    options.url,
    ...(options.scriptArgs?.length ? ['--', ...options.scriptArgs] : []),
  ];
  // wrk is the only child that ends during the run, so the parent's waited-for-children time grows by wrk's.
  const wrkBefore = cpuMs('self', true);
  const serverBefore = options.serverPid === undefined ? undefined : cpuMs(options.serverPid);
  const started = performance.now();
  const { stdout } = await run('wrk', args, { maxBuffer: 1024 * 1024 });
  const wallMs = performance.now() - started;
  const serverAfter = options.serverPid === undefined ? undefined : cpuMs(options.serverPid);
  const wrkAfter = cpuMs('self', true);
  const summary = parseSummary(stdout);
  const { errors } = summary;
  const share = (before?: number, after?: number) =>
    before === undefined || after === undefined ? undefined : (after - before) / wallMs;
  return {
    requests: summary.requests,
    seconds: summary.duration_us / 1e6,
    rps: summary.requests / (summary.duration_us / 1e6),
    p50Ms: summary.latency_us.p50 / 1000,
    p99Ms: summary.latency_us.p99 / 1000,
    maxMs: summary.latency_us.max / 1000,
    errors,
    errorCount: errors.connect + errors.read + errors.write + errors.timeout + errors.status,
    wrkCores: share(wrkBefore, wrkAfter),
    serverCores: share(serverBefore, serverAfter),
  };
}
