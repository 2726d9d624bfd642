import { randomUUID } from 'node:crypto';
import { currentAuditIdentity } from '../auth/audit-identity.js';
import type { Executor } from '../storage/locked-transaction.js';
import { toJson } from '../storage/schema.js';
import type { NewAuditEvent } from './release-store.js';

/** Writes an audit event in the caller's transaction, with the acting operator's identity when there is one. */
export async function insertAudit(db: Executor, event: NewAuditEvent, now: Date): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      type: event.type,
      actor: event.actor,
      channel: event.track?.channel ?? null,
      platform: event.track?.platform ?? null,
      runtime_version: event.track?.runtimeVersion ?? null,
      release_id: event.releaseId ?? null,
      // Who acted, when an operator did (auth/audit-identity.ts); nothing for the release token.
      details: toJson({ ...event.details, ...currentAuditIdentity() }),
      created_at: now.getTime(),
      app_id: event.app,
    })
    .execute();
}
