import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrator.js';

/**
 * Migrations are expand-only (docs/deployment.md, "Rolling upgrades and migrations"): during a
 * rolling upgrade the previous version keeps serving on the schema the new one migrated, so a
 * migration may add tables, nullable columns, columns with a default and indexes, and never drop,
 * rename or narrow what a previous version reads or writes. This test is a tripwire on the DDL of
 * every `up`: a contract change (a drop after the code stopped using it, a release later) must be
 * listed here with the release that made it safe.
 */
const CONTRACT: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /\bdrop\s+(table|column)\b|\.drop(Table|Column)\(/i, what: 'drops a table or column' },
  { pattern: /\brename\b|\.rename(To|Column)\(/i, what: 'renames a table or column' },
  { pattern: /\balter\s+column\b|\.(alter|modify)Column\(/i, what: 'changes a column' },
  {
    pattern: /\badd\s+(column\s+)?(?:(?!default)[^,;`])*\bnot\s+null\b(?:(?!default)[^,;`])*[,;`]/i,
    what: 'adds a NOT NULL column without a default (a previous version inserts without it)',
  },
];

/** Contract migrations allowed on purpose: name → the reason and the release after which it is safe. */
const ALLOWED_CONTRACTS: Record<string, string> = {
  // Safe at once: it only widens. SQLite cannot drop a CHECK, so its tables are rebuilt under their
  // own names with the same columns, keys and indexes (the drop and rename are of the copy's
  // predecessor); a previous version reads and writes them unchanged. PostgreSQL drops constraints only.
  '021_drop_enumeration_checks': 'drops the CHECKs that enumerate documents, vendors and roles (issue 37)',
};

const ups = Object.entries(MIGRATIONS).flatMap(([name, make]) =>
  (['sqlite', 'postgres'] as const).map((engine) => ({ name, engine, source: make(engine).up.toString() })),
);

describe('migrations are expand-only', () => {
  it.each(ups.map((up) => [`${up.name} (${up.engine})`, up] as const))('%s', (_label, up) => {
    if (ALLOWED_CONTRACTS[up.name]) return;
    const found = CONTRACT.filter(({ pattern }) => pattern.test(up.source)).map(({ what }) => what);
    expect(found, `${up.name} ${found.join('; ')}`).toEqual([]);
  });

  it('the tripwire catches what it is meant to', () => {
    const caught = (ddl: string) => CONTRACT.filter(({ pattern }) => pattern.test(ddl)).map(({ what }) => what);
    expect(caught('await sql`alter table releases drop column message`.execute(db)')).toHaveLength(1);
    expect(caught('await sql`alter table releases rename column a to b`.execute(db)')).toHaveLength(1);
    expect(caught('await sql`alter table releases alter column a type bigint`.execute(db)')).toHaveLength(1);
    expect(caught('await sql`alter table releases add column key text not null`.execute(db)')).toHaveLength(1);
    expect(caught("await sql`alter table releases add column key text not null default ''`.execute(db)")).toEqual([]);
    expect(caught('await sql`alter table releases add column key text`.execute(db)')).toEqual([]);
    expect(caught('await sql`create table t (id text primary key, n integer not null)`.execute(db)')).toEqual([]);
    expect(caught('await sql`create index releases_key on releases (key)`.execute(db)')).toEqual([]);
  });
});
