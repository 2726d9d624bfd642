import { randomUUID } from 'node:crypto';
import { DEFAULT_APP, type OperatorGrant, type OperatorRole, type OperatorTokenView } from '@ferry/contracts';
import type { Kysely, Transaction } from 'kysely';
import { withWriteTransaction } from '../storage/locked-transaction.js';
import type { DatabaseSchema, OperatorTokensTable } from '../storage/schema.js';
import { parseJson, toJson } from '../storage/schema.js';
import { credentialHash, newOperatorToken } from './operator-credential.js';

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** An active (unrevoked) token, as the access check needs it. */
export interface ActiveOperatorToken {
  id: string;
  name: string;
  role: OperatorRole;
  /** The app the role is granted in; null: every app. */
  app: string | null;
  lastUsedAt: number | null;
}

/** A token's one grant. */
export const grantOfToken = (token: Pick<ActiveOperatorToken, 'app' | 'role'>): OperatorGrant => ({
  app: token.app,
  role: token.role,
});

/**
 * The grants of a session row from before sessions kept them (a previous version's, during a
 * rolling upgrade): its role, server-wide for an admin and in the default app otherwise, as
 * migration 024 grants the tokens of that time.
 */
const legacyGrants = (role: OperatorRole): OperatorGrant[] => [{ app: role === 'admin' ? null : DEFAULT_APP, role }];

/** A console session, with the name and role it acts under. */
export interface StoredSession {
  kind: 'token' | 'oidc';
  tokenId: string | null;
  subject: string;
  name: string;
  /** The highest role of its grants (the column a previous version reads). */
  role: OperatorRole;
  grants: OperatorGrant[];
  expiresAt: number;
}

/** Who did something to a token, for its audit event. */
export interface TokenAuditContext {
  actor: string;
  details?: Record<string, unknown>;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const tokenView = (row: OperatorTokensTable): OperatorTokenView => ({
  id: row.id,
  name: row.name,
  role: row.role,
  app: row.app_id,
  createdAt: new Date(row.created_at).toISOString(),
  createdBy: row.created_by,
  revokedAt: iso(row.revoked_at),
  lastUsedAt: iso(row.last_used_at),
});

/** A token name that is already taken (names are unique: they are how people are audited). */
export class OperatorNameTaken extends Error {
  override name = 'OperatorNameTaken';
}

async function audit(
  db: Executor,
  type: string,
  context: TokenAuditContext,
  details: Record<string, unknown>,
  at: number,
  app: string | null = DEFAULT_APP,
) {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      type,
      actor: context.actor,
      channel: null,
      platform: null,
      runtime_version: null,
      release_id: null,
      details: toJson({ ...details, ...context.details }),
      created_at: at,
      // A server-wide token's events are the default app's: every admin sees them there.
      app_id: app ?? DEFAULT_APP,
    })
    .execute();
}

/** An event about a token, recorded as its app's (a server-wide token's: the default app's). */
const auditToken = (db: Executor, type: string, context: TokenAuditContext, row: OperatorTokensTable, at: number) =>
  audit(db, type, context, { tokenId: row.id, name: row.name, role: row.role, app: row.app_id }, at, row.app_id);

/** Minimum time between two writes of a token's last_used_at: a busy console must not write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Operator tokens and console sessions in the database (SQLite or PostgreSQL). Every lookup reads
 * the database: a revocation is seen by every instance on its next request, with no cache to outlive it.
 */
export class OperatorTokenStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a token; the answer is the only place the token itself ever appears. */
  async create(
    input: { name: string; role: OperatorRole; app?: string | null },
    context: TokenAuditContext,
  ): Promise<OperatorTokenView & { token: string }> {
    const token = newOperatorToken();
    const at = this.now().getTime();
    const row: OperatorTokensTable = {
      id: randomUUID(),
      name: input.name,
      role: input.role,
      token_hash: credentialHash(token),
      created_at: at,
      created_by: context.actor,
      revoked_at: null,
      last_used_at: null,
      app_id: input.app === undefined ? (input.role === 'admin' ? null : DEFAULT_APP) : input.app,
    };
    await withWriteTransaction(this.db, async (trx) => {
      const taken = await trx
        .selectFrom('operator_tokens')
        .select('id')
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (taken) throw new OperatorNameTaken(input.name);
      await trx.insertInto('operator_tokens').values(row).execute();
      await auditToken(trx, 'operator_token.created', context, row, at);
    });
    return { ...tokenView(row), token };
  }

  async list(): Promise<OperatorTokenView[]> {
    const rows = await this.db
      .selectFrom('operator_tokens')
      .selectAll()
      .orderBy('created_at')
      .orderBy('name')
      .execute();
    return rows.map(tokenView);
  }

  /** Finds a token by id, or by name when `idOrName` is not an id. */
  async find(idOrName: string): Promise<OperatorTokenView | undefined> {
    const row = await this.db
      .selectFrom('operator_tokens')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .executeTakeFirst();
    return row ? tokenView(row) : undefined;
  }

  /**
   * Revokes a token and ends its console sessions, in one transaction. Undefined when there is no
   * such token; `alreadyRevoked` when it was revoked before (nothing changes, nothing is audited).
   */
  async revoke(
    idOrName: string,
    context: TokenAuditContext,
  ): Promise<{ token: OperatorTokenView; alreadyRevoked: boolean } | undefined> {
    const at = this.now().getTime();
    return withWriteTransaction(this.db, async (trx) => {
      const row = await trx
        .selectFrom('operator_tokens')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.revoked_at !== null) return { token: tokenView(row), alreadyRevoked: true };
      await trx.updateTable('operator_tokens').set({ revoked_at: at }).where('id', '=', row.id).execute();
      await trx.deleteFrom('operator_sessions').where('token_id', '=', row.id).execute();
      await auditToken(trx, 'operator_token.revoked', context, row, at);
      return { token: tokenView({ ...row, revoked_at: at }), alreadyRevoked: false };
    });
  }

  /** An audit event about operator access itself (a console sign-in), outside any track. */
  async audit(
    type: string,
    actor: string,
    details: Record<string, unknown>,
    app: string | null = DEFAULT_APP,
  ): Promise<void> {
    await audit(this.db, type, { actor }, details, this.now().getTime(), app);
  }

  /** The unrevoked token with this value, if any. */
  async active(token: string): Promise<ActiveOperatorToken | undefined> {
    const row = await this.db
      .selectFrom('operator_tokens')
      .select(['id', 'name', 'role', 'app_id', 'last_used_at'])
      .where('token_hash', '=', credentialHash(token))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row
      ? { id: row.id, name: row.name, role: row.role, app: row.app_id, lastUsedAt: row.last_used_at }
      : undefined;
  }

  /** Notes that a token was used, at most once a minute per token. */
  async touch(token: ActiveOperatorToken): Promise<void> {
    const at = this.now().getTime();
    if (token.lastUsedAt !== null && at - token.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    await this.db.updateTable('operator_tokens').set({ last_used_at: at }).where('id', '=', token.id).execute();
  }

  async createSession(idHash: string, session: StoredSession): Promise<void> {
    await this.db
      .insertInto('operator_sessions')
      .values({
        id_hash: idHash,
        kind: session.kind,
        token_id: session.tokenId,
        subject: session.subject,
        name: session.name,
        role: session.role,
        grants: toJson(session.grants),
        created_at: this.now().getTime(),
        expires_at: session.expiresAt,
      })
      .execute();
  }

  /**
   * The live session with this id hash: not expired, and made with a token that is still
   * unrevoked (revoking deletes the sessions too; the join makes it hold even mid-transaction).
   */
  async session(idHash: string): Promise<StoredSession | undefined> {
    const row = await this.db
      .selectFrom('operator_sessions as s')
      .leftJoin('operator_tokens as t', 't.id', 's.token_id')
      .select([
        's.kind',
        's.token_id',
        's.subject',
        's.name',
        's.role',
        's.grants',
        's.expires_at',
        't.revoked_at',
        't.id as tid',
      ])
      .where('s.id_hash', '=', idHash)
      .where('s.expires_at', '>', this.now().getTime())
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.kind === 'token' && (row.tid === null || row.revoked_at !== null)) return undefined;
    return {
      kind: row.kind,
      tokenId: row.token_id,
      subject: row.subject,
      name: row.name,
      role: row.role,
      grants: row.grants === null ? legacyGrants(row.role) : parseJson<OperatorGrant[]>(row.grants),
      expiresAt: row.expires_at,
    };
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Expired sessions are removed now and then (at sign-in), so the table stays small. */
  async deleteExpiredSessions(): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('expires_at', '<=', this.now().getTime()).execute();
  }
}
