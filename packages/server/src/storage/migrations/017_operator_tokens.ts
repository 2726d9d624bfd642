import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Operator access (issue 19).
 *
 * `operator_tokens`: the release console's and the API's people tokens, each with a role. Only the
 * SHA-256 of a token is stored (`token_hash`, base64url); the token itself is shown once, at
 * creation. A revoked token keeps its row (revoked_at) so the audit log's token ids stay resolvable.
 *
 * `operator_sessions`: console sign-ins. The cookie holds a random session id; only its SHA-256 is
 * stored. A session made with an operator token names it (token_id) and ends with its revocation;
 * one made with an OIDC token carries the name and role it was verified with and ends at expires_at.
 */
export const operatorTokensMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table operator_tokens (
        id text primary key,
        name text not null unique,
        role text not null check (role in ('viewer', 'releaser', 'admin')),
        token_hash text not null unique,
        created_at bigint not null,
        created_by text not null,
        revoked_at bigint,
        last_used_at bigint
      )`.execute(db);
    await sql`
      create table operator_sessions (
        id_hash text primary key,
        kind text not null check (kind in ('token', 'oidc')),
        token_id text references operator_tokens (id),
        subject text not null,
        name text not null,
        role text not null check (role in ('viewer', 'releaser', 'admin')),
        created_at bigint not null,
        expires_at bigint not null
      )`.execute(db);
    await sql`create index operator_sessions_token on operator_sessions (token_id)`.execute(db);
  },
  async down(db) {
    await sql`drop table operator_sessions`.execute(db);
    await sql`drop table operator_tokens`.execute(db);
  },
});
