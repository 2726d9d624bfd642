import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import { auditActorOf, auditIdentityOf } from './operator-access.js';

/**
 * Who is acting, for the audit events a service writes on their behalf: the store adds it to each
 * event's details (`operator: { kind, id, via }`), so the services need not carry it through every
 * signature. Set only around release-control handlers; empty for the release token and for Ferry's
 * own actions (a halt).
 */
const identity = new AsyncLocalStorage<Record<string, unknown>>();

export const currentAuditIdentity = (): Record<string, unknown> => identity.getStore() ?? {};

/**
 * Runs a release-control action as the request's operator: `actor` is `operator:<name>` for people
 * (what the client claims is ignored), else what the release token's client claims (`release-token`
 * by default), and audit events written meanwhile name the token or OIDC subject.
 */
export function actAs<T>(request: FastifyRequest, claimed: string | undefined, action: (actor: string) => Promise<T>) {
  return identity.run(auditIdentityOf(request), () => action(auditActorOf(request, claimed)));
}
