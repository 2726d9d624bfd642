import type { FastifyBaseLogger } from 'fastify';
import type { Track } from '../app-track.js';
import type { StaleListener } from './manifest-cache.js';

/**
 * What operators hear of cached manifests served past their TTL because reloading them failed
 * (stale-if-error): one warning when the first track goes stale, one when the first reaches its
 * limit and is dropped (its devices then get 503), one line when none is stale any more. An
 * outage is then a few lines whatever the number of tracks and requests; each stale answer is
 * counted (`ferry_manifest_stale_answers_total`).
 */
export class StaleManifestLog implements StaleListener {
  /** Whether this burst's first drop at the limit was told. */
  private limitTold = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly staleMs: number,
    private readonly countAnswer: () => void,
  ) {}

  reloadFailed(track: Track, error: unknown, staleTracks: number): void {
    if (staleTracks !== 1) return;
    this.log.warn(
      { err: error, track, staleIfErrorSeconds: this.staleMs / 1000 },
      'could not reload a cached manifest: serving cached manifests past their TTL while reloads fail (stale-if-error)',
    );
  }

  staleEnded(track: Track, limit: boolean, staleTracks: number): void {
    if (limit && !this.limitTold) {
      this.limitTold = true;
      this.log.warn(
        { track, staleIfErrorSeconds: this.staleMs / 1000 },
        'a cached manifest reached MANIFEST_STALE_IF_ERROR_SECONDS without a successful reload and was dropped: its requests load it again (503 while the database is unavailable)',
      );
    }
    if (staleTracks === 0) {
      this.limitTold = false;
      this.log.info('no cached manifest is served stale any more');
    }
  }

  servedStale(): void {
    this.countAnswer();
  }
}
