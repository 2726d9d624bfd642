import type { ServerResponse } from 'node:http';
import type { FastPath } from '../../../http/fast-paths.js';
import type { FerryMetrics } from '../../../metrics/ferry-metrics.js';
import { type ManifestOutcome, NO_RELEASE } from '../../../ota/manifest/manifest-outcome.js';
import {
  clientIdOf,
  type ManifestFormat,
  negotiateManifestFormat,
  parseManifestRequest,
  type ValidManifestRequest,
} from '../../../ota/manifest/manifest-request.js';
import { type ManifestRequestHeaders, manifestRequestHeaders } from '../../../ota/manifest/manifest-request-headers.js';
import type { ManifestService } from '../../../ota/manifest/manifest-service.js';
import type { DeviceReports } from '../../../ota/reports/device-reports.js';
import { TurnBudget, TurnPacer } from '../../../turn-pacer.js';

const PATH = '/api/updates/manifest';
/**
 * Answers sent in one turn before the rest wait for the next: 500 requests arriving at once no
 * longer write 500 answers in one turn (52–100 ms on a slow machine), while steady traffic on up to
 * 64 connections is answered in the turn it arrives in. At 32, a server saturated by 50
 * connections sent a third of its answers a turn late, each through a promise.
 */
const ANSWERS_PER_TURN = 64;
const budget = new TurnBudget(ANSWERS_PER_TURN);
const pacer = new TurnPacer();

interface FastPathOptions {
  logsRequests: () => boolean;
  reports?: DeviceReports;
  metrics?: FerryMetrics;
}

/**
 * GET /api/updates/manifest answered before Fastify: the same parse, negotiation, outcome and
 * answer as the route (routes/api/updates/manifest.ts), which takes every request this does not (a
 * refusal, HEAD, debug logging, a failed load).
 */
export function manifestFastPath(service: ManifestService, options: FastPathOptions): FastPath {
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET') return false;
    const url = request.url ?? '';
    if (url !== PATH && !url.startsWith(`${PATH}?`)) return false;
    if (options.logsRequests()) return false;
    // Never request.headers, which builds an object of every header (manifest-request-headers.ts).
    const headers = manifestRequestHeaders(request.rawHeaders);
    const parsed = parseManifestRequest(headers);
    if (!parsed.ok) return false;
    const format = negotiateManifestFormat(headers.accept);
    if (!format) return false;
    const clientId = clientIdOf(headers);
    const outcome = service.resolveCached(parsed, clientId, started);
    if (outcome) {
      if (budget.take()) return send(headers, response, parsed, format, outcome, started, options, clientId);
      // A crowd whose requests all arrived in this turn: the rest are answered a slice per turn.
      return pacer.turn().then(() => send(headers, response, parsed, format, outcome, started, options, clientId));
    }
    // A track not in memory: its one load (shared by every request waiting for it) answers this
    // one too, without Fastify, so a crowd on a cold track costs about what it costs on a warm one.
    // A failed load (the database down) goes to the route, which answers 503 with the common body.
    return service
      .resolve(parsed.request, parsed.ns, clientId)
      .then((resolved) => send(headers, response, parsed, format, resolved, started, options, clientId));
  };
}

// A top-level function, not a closure made per request: this is the hot path.
function send(
  headers: ManifestRequestHeaders,
  response: ServerResponse,
  parsed: ValidManifestRequest,
  format: ManifestFormat,
  outcome: ManifestOutcome,
  started: number,
  options: FastPathOptions,
  clientId: string | undefined,
): boolean {
  // Made once per request kind and outcome (RememberedRequest), not looked up through the outcome.
  const answer = parsed.answerTo(outcome, format);
  if (!answer) return false;
  options.reports?.observe(headers, parsed.runningUpdateId, clientId);
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
  options.metrics?.manifestAnswered(
    parsed.labelOf(outcome),
    parsed.platform,
    parsed.channel,
    (performance.now() - started) / 1000,
  );
  // One comparison for every other answer. No debug line here: at debug level the route answers.
  if (outcome === NO_RELEASE)
    options.metrics?.manifestNoRelease(parsed.platform, parsed.channel, parsed.request.runtimeVersion);
  return true;
}
