import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import type { Config } from '../../src/config/config.js';

/** The server every PostgreSQL test database is created on; override with TEST_POSTGRES_URL. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function probePostgres(): Promise<string | undefined> {
  // Only a hang ends the wait: a refused connection fails at once, and a slow machine must not turn a
  // reachable server into skipped suites (or, in CI, a failure).
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: HANG_GUARD_MS });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const postgresProblem = await probePostgres();
if (postgresProblem && process.env.CI === 'true') {
  throw new Error(`PostgreSQL is required in CI but unreachable at ${POSTGRES_ADMIN_URL}: ${postgresProblem}`);
}
if (postgresProblem) {
  process.stderr.write(
    `[ferry tests] skipping PostgreSQL suites: ${POSTGRES_ADMIN_URL} unreachable (${postgresProblem})\n`,
  );
}

export type EngineName = 'sqlite' | 'postgres';
export const ENGINES: EngineName[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  target: Config['database'];
  /** A database URL (postgres) or file path (sqlite), for tests that connect on their own. */
  location: string;
  drop(): Promise<void>;
}

/** Creates an empty database of its own: a temp SQLite file, or a fresh PostgreSQL database. */
export async function createTestDatabase(engine: EngineName): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-sqlite-'));
    const file = path.join(dir, 'ferry.sqlite');
    return {
      target: { engine, file },
      location: file,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `ferry_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    // A small pool: a server holds it and its LISTEN connection, and test files run in parallel,
    // one worker per core, against PostgreSQL's default of 100 connections.
    target: { engine, url: url.toString(), poolSize: 3 },
    location: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * Declares the same suite once per engine. PostgreSQL suites fail in CI when the server is
 * unreachable (the probe above throws) and are skipped with a printed reason elsewhere.
 */
export function describeEachEngine(name: string, body: (engine: EngineName) => void): void {
  for (const engine of ENGINES) {
    const skip = engine === 'postgres' && postgresProblem !== undefined;
    (skip ? describe.skip : describe)(`${name} [${engine}]`, () => body(engine));
  }
}
