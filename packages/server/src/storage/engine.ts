/** The two databases Ferry runs on: SQLite embedded, PostgreSQL for several instances. */
export type Engine = 'sqlite' | 'postgres';
