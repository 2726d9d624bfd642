import fp from 'fastify-plugin';
import type { Config } from '../config/config.js';
import { type Database, openMigratedDatabase } from './database.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The migrated database every feature plugin reads and writes (SQLite or PostgreSQL). */
    database: Database;
  }
}

export interface DatabasePluginOptions {
  target: Config['database'];
}

/**
 * Opens and migrates the database once, shares it with the feature plugins registered after it,
 * and closes it last (fastify-plugin: the decorator is visible to siblings).
 */
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, options) => {
    const database = await openMigratedDatabase(options.target, {
      onNewerMigrations: (migrations) =>
        app.log.warn(
          { migrations },
          'the database was migrated by a newer Ferry version; running on its schema (migrations are expand-only)',
        ),
    });
    app.decorate('database', database);
    app.addHook('onClose', async () => database.close());
  },
  { name: 'ferry-database' },
);
