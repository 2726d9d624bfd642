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
export async function actAs<T>(
  request: FastifyRequest,
  claimed: string | undefined,
  action: (actor: string) => Promise<T>,
): Promise<T> {
  running++;
  try {
    return await identity.run(auditIdentityOf(request), () => action(auditActorOf(request, claimed)));
  } finally {
    // An AsyncLocalStorage once used keeps Node's async hooks on for every asynchronous operation of
    // the process: after the first operator action, every device's manifest request would pay for
    // them for the rest of the process's life. So the storage is switched off whenever no action is
    // running; `run` switches it on again. Not while another action runs: `disable` would end that
    // action's context too.
    if (--running === 0) identity.disable();
  }
}

/** Release-control actions running now (the storage is on only while there are some). */
let running = 0;
