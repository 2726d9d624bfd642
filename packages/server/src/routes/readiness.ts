/**
 * Whether an instance should get traffic: what /readyz answers, and so what a Kubernetes readiness
 * probe, the image's HEALTHCHECK and the compose proxy's health check act on.
 *
 * - ready: the database answers.
 * - degraded: the database does not answer, but the instance still holds answers it may give
 *   without it (manifests within their stale-if-error limit). It stays in the load balancer: a
 *   database outage reaches every instance at once, and an instance taken out then serves nothing,
 *   so taking all of them out would turn a database blip into a total outage of the manifests
 *   stale-if-error exists to keep serving. Requests that need the database answer 503 meanwhile.
 * - unready: the database does not answer and the instance has nothing it could serve: 503.
 */
export type Readiness = 'ready' | 'degraded' | 'unready';

export interface ReadinessInput {
  databaseReachable: boolean;
  /** Answers the instance can give without its database (cached manifests it may still serve). */
  servableWithoutDatabase: number;
}

export function readiness(input: ReadinessInput): Readiness {
  if (input.databaseReachable) return 'ready';
  return input.servableWithoutDatabase > 0 ? 'degraded' : 'unready';
}

/**
 * What the areas can serve without the database, read on each readiness check. The health routes
 * exist in every area; the OTA area adds its manifest cache here when it is on.
 */
export class ServableWithoutDatabase {
  private readonly sources: Array<() => number> = [];

  add(source: () => number): void {
    this.sources.push(source);
  }

  count(): number {
    let total = 0;
    for (const source of this.sources) total += source();
    return total;
  }
}
