import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../../scripts/free-port.js';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';

/**
 * A PostgreSQL cluster of the test's own, on its own port, that the test may stop and start:
 * outages are rehearsed on it, never on the shared server. Needs the Debian PostgreSQL binaries
 * and either root (the cluster runs as the postgres user) or being that user.
 */
export interface ThrowawayPostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

const binDir = (): string | undefined => {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
};

/** Why a throwaway cluster cannot be made here, or undefined when it can. */
export function throwawayPostgresProblem(): string | undefined {
  if (!binDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  const isRoot = process.getuid?.() === 0;
  if (!isRoot && os.userInfo().username !== 'postgres')
    return 'initdb needs root (to run as postgres) or the postgres user';
  if (isRoot && spawnSync('runuser', ['-u', 'postgres', '--', 'true']).status !== 0) return 'runuser -u postgres fails';
  return undefined;
}

/** `settings`: server settings for the cluster (`-c name=value`), e.g. a small max_connections. */
export async function startThrowawayPostgres(
  options: { settings?: Record<string, string | number> } = {},
): Promise<ThrowawayPostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-pg-'));
  // pg_ctl -w gives up after PGCTLTIMEOUT (60 s by default): the hang guard instead, so a loaded
  // machine makes start and stop slower, never failed.
  const env = { ...process.env, PGCTLTIMEOUT: String(Math.ceil(HANG_GUARD_MS / 1000)) };
  const asPostgres = (command: string, args: string[]) => {
    const file = path.join(bin, command);
    return process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--preserve-environment', '--', file, ...args], {
          stdio: 'pipe',
          env,
        })
      : execFileSync(file, args, { stdio: 'pipe', env });
  };
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => ` -c ${name}=${value}`);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off${settings.join('')}`;
  // -w: pg_ctl returns once the server accepts connections (or fails): readiness, not a sleep.
  const start = () =>
    asPostgres('pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'log'), '-w', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // -m immediate: the way a crash or a node failure looks to clients (connections cut, no goodbye).
    stop: () => asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    destroy: () => {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
