import type { FerryMetrics } from '../../metrics/ferry-metrics.js';
import { type Track, trackOf } from '../app-track.js';
import type { DeviceReports } from '../reports/device-reports.js';
import type { ManifestAnswer, ManifestAnswers } from './manifest-answer.js';
import { manifestAnswer, type TrackEntry } from './manifest-decision.js';
import type { PickedHeaders } from './manifest-headers.js';
import {
  negotiateManifestFormat,
  parseManifestRequest,
  type RefusedManifestRequest,
  type ValidManifestRequest,
} from './manifest-request.js';

/** Where a reply finds its track: in memory, or by its one shared load (manifest-service.ts). */
export interface ManifestSource {
  readonly cachedTrack: (key: string) => TrackEntry | undefined;
  /** Loads the track (and first its app: a promise rejected with 404 APP_NOT_FOUND when there is none). */
  track(track: Track): Promise<TrackEntry>;
  /** An app's up-to-date answers: there for the app of any track in memory or just loaded. */
  readonly upToDateOf: (app: string) => ManifestAnswers | undefined;
}

/** A valid request with the answer it gets, or the refusal the route words as an error. */
export type ManifestReply = (ValidManifestRequest<TrackEntry> & { answer: ManifestAnswer }) | RefusedManifestRequest;

const AVAILABLE = ['multipart/mixed', 'application/expo+json', 'application/json'];

/**
 * The reply to a manifest request, for the fast path and the route alike: parse, negotiate, find
 * the track, decide (manifestAnswer). Synchronous when the track is in memory; otherwise a promise
 * of its load, which rejects when the load fails.
 */
export function replyToManifest(
  picked: PickedHeaders,
  app: string,
  source: ManifestSource,
): ManifestReply | Promise<ManifestReply> {
  const parsed = parseManifestRequest(picked, app, source.cachedTrack);
  if (!parsed.ok) return parsed;
  const format = negotiateManifestFormat(picked.get('accept'));
  if (!format) {
    const message = `The manifest is served as ${AVAILABLE.join(', ')}; the accept header allows none of them.`;
    return {
      ok: false,
      ns: parsed.ns,
      status: 406,
      code: 'NOT_ACCEPTABLE',
      message,
      details: { available: AVAILABLE },
    };
  }
  const reply = (track: TrackEntry): ManifestReply => {
    const answer = manifestAnswer(track, parsed, format, source.upToDateOf(app)!);
    if (answer) return { ...parsed, answer };
    const message =
      'This track answers with a directive (roll back to the embedded bundle), which only multipart/mixed can carry; the accept header does not allow it.';
    return {
      ok: false,
      ns: parsed.ns,
      status: 406,
      code: 'NOT_ACCEPTABLE',
      message,
      details: { available: [AVAILABLE[0]] },
    };
  };
  return parsed.found ? reply(parsed.found) : source.track(trackOf({ app, ...parsed.request })).then(reply);
}

export interface ManifestObservers {
  reports?: DeviceReports;
  metrics?: FerryMetrics;
}

/** What an answered request reports (the update the device runs, its failures) and counts. */
export function observeAnswer(
  reply: Extract<ManifestReply, { ok: true }>,
  picked: PickedHeaders,
  { reports, metrics }: ManifestObservers,
  seconds: number,
): void {
  reports?.observe(picked, reply.request, reply.clientId, reply.app);
  const { platform, channel, runtimeVersion } = reply.request;
  metrics?.manifestAnswered(reply.answer.label, platform, channel, seconds, reply.app);
  // "My update never arrives": the track the device asks for has nothing published.
  if (reply.answer.noRelease) metrics?.manifestNoRelease(platform, channel, runtimeVersion);
}
