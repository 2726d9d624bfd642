import type { FastPath } from '../../../http/fast-paths.js';
import type { FerryMetrics } from '../../../metrics/ferry-metrics.js';
import { manifestAnswer } from '../../../ota/manifest/manifest-answer.js';
import { clientIdOf, negotiateManifestFormat, parseManifestRequest } from '../../../ota/manifest/manifest-request.js';
import { type ManifestService, outcomeLabel } from '../../../ota/manifest/manifest-service.js';
import type { DeviceReports } from '../../../ota/reports/device-reports.js';

const PATH = '/api/updates/manifest';

/**
 * GET /api/updates/manifest for a track in the cache, answered before Fastify: the same parse,
 * negotiation, outcome and answer as the route (routes/api/updates/manifest.ts), which takes every
 * request this does not (a miss, a refusal, HEAD, debug logging).
 */
export function manifestFastPath(
  service: ManifestService,
  options: { logsRequests: () => boolean; reports?: DeviceReports; metrics?: FerryMetrics },
): FastPath {
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET') return false;
    const url = request.url ?? '';
    if (url !== PATH && !url.startsWith(`${PATH}?`)) return false;
    if (options.logsRequests()) return false;
    const parsed = parseManifestRequest(request.headers);
    if (!parsed.ok) return false;
    const format = negotiateManifestFormat(request.headers.accept);
    if (!format) return false;
    const outcome = service.resolveCached(parsed.request, parsed.ns, clientIdOf(request.headers));
    if (!outcome) return false;
    const answer = manifestAnswer(outcome, format, parsed.ns);
    if (!answer) return false;
    options.reports?.observe(request.headers, parsed.request);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
    options.metrics?.manifestAnswered(
      outcomeLabel(outcome),
      parsed.request.platform,
      parsed.request.channel,
      (performance.now() - started) / 1000,
    );
    return true;
  };
}
