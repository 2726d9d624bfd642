import type { ServerResponse } from 'node:http';
import { trackOf } from '@ferry/contracts';
import type { FastPath } from '../../../http/fast-paths.js';
import type { FerryMetrics } from '../../../metrics/ferry-metrics.js';
import { manifestAnswer, type TrackEntry } from '../../../ota/manifest/manifest-decision.js';
import { type PickedHeaders, pickHeaders, sharedHeader } from '../../../ota/manifest/manifest-headers.js';
import {
  negotiateManifestFormat,
  parseManifestRequest,
  type ValidManifestRequest,
} from '../../../ota/manifest/manifest-request.js';
import type { ManifestService } from '../../../ota/manifest/manifest-service.js';
import type { DeviceReports } from '../../../ota/reports/device-reports.js';

const PATH = '/api/updates/manifest';

interface FastPathOptions {
  logsRequests: () => boolean;
  reports?: DeviceReports;
  metrics?: FerryMetrics;
}

/**
 * GET /api/updates/manifest answered before Fastify, with the route's parse, negotiation and
 * decision (routes/api/updates/manifest.ts). The route takes every request this does not: a
 * refusal, HEAD, debug logging, a directive the accept header cannot carry, a failed load.
 */
export function manifestFastPath(service: ManifestService, options: FastPathOptions): FastPath {
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET') return false;
    const url = request.url ?? '';
    if ((url !== PATH && !url.startsWith(`${PATH}?`)) || options.logsRequests()) return false;
    const picked = pickHeaders(request.rawHeaders);
    const parsed = parseManifestRequest(picked, service.cachedTrack);
    if (!parsed.ok) return false;
    if (parsed.found) return send(service, parsed.found, picked, parsed, response, started, options);
    // A track not in memory: its one load, shared by every request waiting for it, answers this
    // one too. A failed load (the database down) goes to the route, which answers 503.
    return service
      .track(trackOf(parsed.request))
      .then((track) => send(service, track, picked, parsed, response, started, options));
  };
}

function send(
  service: ManifestService,
  track: TrackEntry,
  picked: PickedHeaders,
  parsed: ValidManifestRequest<TrackEntry>,
  response: ServerResponse,
  started: number,
  options: FastPathOptions,
): boolean {
  const format = negotiateManifestFormat(sharedHeader(picked, 'accept'));
  if (!format) return false;
  const answer = manifestAnswer(track, parsed, format, service.upToDate);
  if (!answer) return false;
  options.reports?.observe(picked, parsed.request, parsed.clientId);
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
  const { platform, channel, runtimeVersion } = parsed.request;
  options.metrics?.manifestAnswered(answer.label, platform, channel, (performance.now() - started) / 1000);
  if (answer.noRelease) options.metrics?.manifestNoRelease(platform, channel, runtimeVersion);
  return true;
}
