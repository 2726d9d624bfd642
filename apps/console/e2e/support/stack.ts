import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  FROM_SOURCES,
  type ServerProcess,
  startServerProcess,
} from '../../../../test/support/browser/server-process.js';

const consoleDir = fileURLToPath(new URL('../..', import.meta.url));
const repoDir = path.resolve(consoleDir, '../..');
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Why PostgreSQL cannot be used, or undefined when it can (CI fails instead of skipping). */
export async function postgresProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI: ${reason}`);
    return `PostgreSQL unreachable at ${POSTGRES_ADMIN_URL} (${reason})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The line console-server.ts prints once it listens. */
interface InstanceAddress {
  url: string;
  releaseToken: string;
  tokens: { viewer?: string; releaser?: string; admin?: string };
}

export interface Instance extends InstanceAddress {
  stop: ServerProcess<InstanceAddress>['stop'];
}

export interface Stack {
  a: Instance;
  b: Instance;
  /** The database both instances use (a test writes many rows straight to it). */
  databaseUrl: string;
  /** `ferry publish` through the CLI against instance A; resolves with the new release id. */
  publish(runtimeVersion: string, message: string, flags?: string[], env?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

/**
 * Two server instances on one fresh PostgreSQL database and one DATA_DIR (the same signing key,
 * release token and objects): what one spec file drives. A creates the operator tokens.
 */
export async function startStack(name: string): Promise<Stack> {
  const database = `ferry_console_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-console-e2e-'));
  const logDir = path.join(consoleDir, 'test-results');

  const start = async (label: string, env: Record<string, string>): Promise<Instance> => {
    const server = await startServerProcess<InstanceAddress>(path.join(consoleDir, 'e2e/support/console-server.ts'), {
      cwd: repoDir,
      logFile: path.join(logDir, `${name}-server-${label}.log`),
      env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir, ...env },
    });
    return { ...server.address, stop: server.stop };
  };
  // A first: it creates the shared development key and token that B then reads.
  const a = await start('a', { FERRY_E2E_TOKENS: '1' });
  const b = await start('b', {});

  return {
    a,
    b,
    databaseUrl: url.toString(),
    publish: async (runtimeVersion, message, flags = [], env = {}) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...FROM_SOURCES, path.join(consoleDir, 'e2e/support/ferry-publish.ts'), runtimeVersion, message, ...flags],
        { cwd: repoDir, env: { ...process.env, OTA_SERVER_URL: a.url, OTA_RELEASE_TOKEN: a.releaseToken, ...env } },
      );
      const id = /published release ([0-9a-f-]{36})/.exec(stdout)?.[1];
      if (!id) throw new Error(`ferry publish printed no release id:\n${stdout}`);
      return id;
    },
    close: async () => {
      for (const instance of [a, b]) await instance.stop();
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${database} with (force)`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a device's update check tells the server: it runs `current`, or it failed `failed`. */
export async function deviceCheck(
  server: string,
  runtimeVersion: string,
  device: string,
  report: { current?: string; failed?: string },
): Promise<number> {
  const headers: Record<string, string> = {
    accept: 'multipart/mixed,application/expo+json,application/json',
    'expo-protocol-version': '1',
    'expo-platform': 'android',
    'expo-runtime-version': runtimeVersion,
    'expo-channel-name': 'production',
    'eas-client-id': device,
  };
  if (report.current) headers['expo-current-update-id'] = report.current;
  if (report.failed) headers['expo-recent-failed-update-ids'] = `"${report.failed}"`;
  const response = await fetch(`${server}/api/updates/manifest`, { headers });
  await response.arrayBuffer();
  return response.status;
}
