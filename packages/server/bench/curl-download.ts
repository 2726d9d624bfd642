/**
 * Downloads for bench:manifest (f), made by curl (Debian package `curl`): a process of its own, as a
 * device is. Timed by this process, a download would also pay for the benchmark's own work (it has
 * just built and uploaded 15 MiB of bundles): its collections and the copying of each chunk into
 * JavaScript would land in the figure.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Download {
  status: number;
  /** The content-encoding it came in: `identity` when the answer named none. */
  encoding: string;
  /** Bytes of the body as sent (not decompressed). */
  bytes: number;
  /** curl's time_total: from the start of the connection to the last byte of the body. */
  ms: number;
}

/** True when a `curl` executable is on PATH. */
export function curlAvailable(): boolean {
  return spawnSync('curl', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** One GET on a connection of its own; the body is counted and thrown away. */
export async function curlDownload(url: string, headers: Record<string, string>): Promise<Download> {
  const args = ['--silent', '--output', '/dev/null'];
  args.push('--write-out', '%{http_code} %{size_download} %{time_total} %header{content-encoding}');
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`);
  const { stdout } = await run('curl', [...args, url]);
  const [status, bytes, seconds, encoding] = stdout.trim().split(' ');
  return { status: Number(status), bytes: Number(bytes), ms: Number(seconds) * 1000, encoding: encoding || 'identity' };
}
