import { ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** What about a route decides which common refusals it can answer. */
export interface RouteTraits {
  /** It reads a body: Fastify parses one for these methods, whatever the route's schema says. */
  takesBody: boolean;
  /** It refuses requests without the right credentials: `security` declared, or an access hook before the handler. */
  authenticated: boolean;
  /** It has a request limit of its own (config.rateLimit). */
  rateLimited: boolean;
}

/** Methods whose requests Fastify reads a body for (a GET or HEAD body is never parsed). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const hasHooks = (hooks: unknown): boolean => (Array.isArray(hooks) ? hooks.length > 0 : typeof hooks === 'function');

/** The traits of a route, read from its options as Fastify has them at registration. */
export function routeTraits(
  route: Pick<RouteOptions, 'method' | 'schema' | 'config' | 'onRequest' | 'preHandler'>,
): RouteTraits {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const security = schema.security;
  const config = (route.config ?? {}) as { rateLimit?: unknown };
  return {
    takesBody: methods.some((method) => BODY_METHODS.has(String(method).toUpperCase())),
    authenticated:
      (Array.isArray(security) && security.length > 0) || hasHooks(route.onRequest) || hasHooks(route.preHandler),
    rateLimited: config.rateLimit !== undefined && config.rateLimit !== false,
  };
}

/**
 * The statuses a route can answer with the common error body whatever its handler does: the one
 * rule for them, so no route's schema repeats it. 500 is never declared: Ferry answers one only for
 * a bug (error-handler.ts), and a bug is not part of the contract.
 */
export function commonStatuses(traits: RouteTraits): number[] {
  // Every route: Node's HTTP parser refuses a request it cannot read (400), one that took too long
  // to arrive (408) or whose headers are too large (431) before any route runs (client-error.ts).
  const statuses = new Set<number>([400, 408, 431]);
  if (traits.authenticated) {
    statuses.add(401);
    statuses.add(403);
    // The app a request names (`ferry-app`) may not exist: 404 APP_NOT_FOUND (docs/apps.md).
    statuses.add(404);
    // Refused credentials are counted per address (auth-failures.ts): past the limit, 429.
    statuses.add(429);
  }
  if (traits.takesBody) {
    // bodyLimit, and a content type no parser reads.
    statuses.add(413);
    statuses.add(415);
  }
  if (traits.rateLimited) statuses.add(429);
  // Every route: a closing server refuses new requests, and an unreachable database is an outage.
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * Adds the common refusals to every route's `schema.response`, as the common error body, unless the
 * route declares that status itself. Registered before any route (onRoute sees only later routes).
 */
export function declareCommonResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const response = { ...((route.schema.response ?? {}) as Record<string, unknown>) };
    for (const status of commonStatuses(routeTraits(route))) {
      if (response[status] === undefined && response[String(status)] === undefined) response[status] = ErrorBody;
    }
    route.schema = { ...route.schema, response };
  });
}
