/**
 * Whether an instance should get traffic: what /readyz answers, and so what a Kubernetes readiness
 * probe, the image's HEALTHCHECK and the compose proxy's health check act on.
 *
 * - starting: the work an instance does once it listens (StartupWork) is under way: 503, so a load
 *   balancer sends it no device before its manifest cache is loaded and its manifest path warm.
 * - ready: the database answers.
 * - degraded: the database does not answer, but the instance still holds answers it may give
 *   without it (manifests within their stale-if-error limit). It stays in the load balancer: a
 *   database outage reaches every instance at once, and an instance taken out then serves nothing,
 *   so taking all of them out would turn a database blip into a total outage of the manifests
 *   stale-if-error exists to keep serving. Requests that need the database answer 503 meanwhile.
 * - unready: the database does not answer and the instance has nothing it could serve: 503.
 */
export type Readiness = 'starting' | 'ready' | 'degraded' | 'unready';

export interface ReadinessInput {
  /** Start-up work under way (StartupWork.pending). */
  starting: boolean;
  databaseReachable: boolean;
  /** Answers the instance can give without its database (cached manifests it may still serve). */
  servableWithoutDatabase: number;
}

export function readiness(input: ReadinessInput): Readiness {
  if (input.starting) return 'starting';
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

/**
 * What an instance does once it listens, in the order added (loading the manifest cache, then
 * warming up the manifest path), and readiness waits for it. Not in Fastify's onReady: its hooks
 * are killed after a fixed time, and on a CPU-limited or busy host this work takes as long as the
 * host makes it, so an instance would crash-loop instead of starting. Each job logs and swallows
 * its own failure: start-up work is best effort, and the instance serves without it.
 */
export class StartupWork {
  private readonly jobs: Array<() => Promise<void>> = [];
  private run: Promise<void> | undefined;
  private finished = false;

  add(job: () => Promise<void>): void {
    this.jobs.push(job);
  }

  /** Runs the jobs once (later calls get the same run). */
  start(): Promise<void> {
    this.run ??= (async () => {
      for (const job of this.jobs) await job().catch(() => {});
      this.finished = true;
    })();
    return this.run;
  }

  /** Started and not finished. An instance that never listened never starts it. */
  get pending(): boolean {
    return this.run !== undefined && !this.finished;
  }
}
