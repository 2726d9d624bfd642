import fp from 'fastify-plugin';
import type { Database } from './database.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The migrated database every feature plugin reads and writes (SQLite or PostgreSQL). */
    database: Database;
  }
}

export interface DatabasePluginOptions {
  /** Opened and migrated before the app is built (openMigratedDatabase). */
  database: Database;
  /** Migrations a newer Ferry applied that this version does not know (a rolling upgrade, a rollback). */
  newerMigrations: string[];
}

/**
 * Shares the database with the feature plugins registered after it, and closes it last
 * (fastify-plugin: the decorator is visible to siblings). It is opened before Fastify loads its
 * plugins, not in one: a plugin has 10 s (pluginTimeout) to load, and opening PostgreSQL may wait
 * longer (a connection timeout, another instance's migration lock), or fail, and then the operator
 * must read why (database-refusal.ts), not "Plugin did not start in time".
 */
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, options) => {
    app.decorate('database', options.database);
    app.addHook('onClose', async () => options.database.close());
    if (options.newerMigrations.length > 0) {
      app.log.warn(
        { migrations: options.newerMigrations },
        'the database was migrated by a newer Ferry version; running on its schema (migrations are expand-only)',
      );
    }
  },
  { name: 'ferry-database' },
);
