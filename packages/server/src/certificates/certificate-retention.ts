import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStore } from '../storage/objects/object-store.js';
import type { AuthenticationStateStore } from './authentication-state-store.js';
import type { IssuanceStore } from './issuance-store.js';

export interface CertificateRetentionDeps {
  issuances: IssuanceStore;
  states: AuthenticationStateStore;
  objects: ObjectStore;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** How often the sweep runs in the background; default hourly. */
  intervalMs?: number;
}

/** Unissued authentication states are kept this long past expiry (for support), then forgotten. */
const STATE_GRACE_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * Removes certificate PDFs past retention (CERT_RETENTION_DAYS) and forgets stale authentication
 * states. Every instance sweeps; deleting an object twice is harmless, so no coordination is needed.
 */
export class CertificateRetention {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => Date;

  constructor(private readonly deps: CertificateRetentionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async sweep(): Promise<{ removedPdfs: number; forgottenStates: number }> {
    const now = this.now().getTime();
    let removedPdfs = 0;
    for (;;) {
      const expired = await this.deps.issuances.expired(now, BATCH);
      for (const issuance of expired) {
        await this.deps.objects.delete(issuance.objectKey);
        await this.deps.issuances.markDeleted(issuance.id, now);
        removedPdfs++;
      }
      if (expired.length < BATCH) break;
    }
    const forgottenStates = await this.deps.states.deleteStale(now - STATE_GRACE_MS);
    if (removedPdfs > 0 || forgottenStates > 0) {
      this.deps.log.info({ removedPdfs, forgottenStates }, 'certificate retention sweep');
    }
    return { removedPdfs, forgottenStates };
  }

  start(): void {
    const interval = this.deps.intervalMs ?? 60 * 60 * 1000;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.deps.log.error({ err: error }, 'certificate retention sweep failed'));
    }, interval);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
