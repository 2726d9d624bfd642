import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';

/** The statements that write: outside a transaction, each runs in one of its own that commits asynchronously. */
const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

const ASYNCHRONOUS = CompiledQuery.raw('set local synchronous_commit = off');

/**
 * A connection of the shared pool whose writes commit asynchronously: a write outside a
 * transaction runs as BEGIN; SET LOCAL synchronous_commit = off; the write; COMMIT, and a
 * transaction begun here sets it first. SET LOCAL ends with the transaction, so the connection goes
 * back to the pool as it came, and a transaction-mode pooler (PgBouncer) sees nothing that outlives
 * a transaction. Reads run as they are.
 */
class AsynchronousCommitConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction || !WRITES.has(query.query.kind)) return this.inner.executeQuery<R>(query);
    await this.inner.executeQuery(CompiledQuery.raw('begin'));
    try {
      await this.inner.executeQuery(ASYNCHRONOUS);
      const result = await this.inner.executeQuery<R>(query);
      await this.inner.executeQuery(CompiledQuery.raw('commit'));
      return result;
    } catch (error) {
      // A lost connection cannot roll back; the pool discards it, and the server ends the transaction.
      await this.inner.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const unwrap = (connection: DatabaseConnection) => (connection as AsynchronousCommitConnection).inner;

class AsynchronousCommitDriver implements Driver {
  constructor(private readonly inner: Driver) {}
  init = () => this.inner.init();
  acquireConnection = async (): Promise<DatabaseConnection> =>
    new AsynchronousCommitConnection(await this.inner.acquireConnection());
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(unwrap(connection), settings);
    (connection as AsynchronousCommitConnection).inTransaction = true;
    await unwrap(connection).executeQuery(ASYNCHRONOUS);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as AsynchronousCommitConnection).inTransaction = false;
    await this.inner.commitTransaction(unwrap(connection));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as AsynchronousCommitConnection).inTransaction = false;
    await this.inner.rollbackTransaction(unwrap(connection));
  }
  savepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.savepoint?.(unwrap(connection), name, compile) ?? Promise.resolve();
  rollbackToSavepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.rollbackToSavepoint?.(unwrap(connection), name, compile) ?? Promise.resolve();
  releaseSavepoint = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
    this.inner.releaseSavepoint?.(unwrap(connection), name, compile) ?? Promise.resolve();
  releaseConnection = (connection: DatabaseConnection) => this.inner.releaseConnection(unwrap(connection));
  /** The pool belongs to the main handle, which ends it. */
  destroy = async () => {};
}

/**
 * Kysely's PostgreSQL dialect over `pool` (the one pool of the instance, shared with the main
 * handle), with asynchronous commit for what it writes (docs/decisions.md, "Authentication states
 * commit asynchronously").
 * A second pool with `synchronous_commit=off` as a start-up option used to do this; it doubled the
 * connections an instance holds, and poolers in transaction mode refuse start-up options.
 */
export function asynchronousCommitDialect(pool: pg.Pool): Dialect {
  const base = new PostgresDialect({ pool });
  return {
    createAdapter: () => base.createAdapter(),
    createDriver: () => new AsynchronousCommitDriver(base.createDriver()),
    createIntrospector: (db) => base.createIntrospector(db),
    createQueryCompiler: () => base.createQueryCompiler(),
  };
}
