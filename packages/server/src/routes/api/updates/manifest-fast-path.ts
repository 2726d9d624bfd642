import type { FastPath } from '../../../http/fast-paths.js';
import { pickHeaders } from '../../../ota/manifest/manifest-headers.js';
import {
  type ManifestObservers,
  type ManifestReply,
  type ManifestSource,
  observeAnswer,
  replyToManifest,
} from '../../../ota/manifest/manifest-reply.js';

const PATH = '/api/updates/manifest';

/**
 * GET /api/updates/manifest answered before Fastify, with the route's reply (replyToManifest). The
 * route takes every request this does not: a refusal, HEAD, debug logging, a failed load (the
 * promise rejects, and FastPaths hands the request over).
 */
export function manifestFastPath(
  source: ManifestSource,
  options: ManifestObservers & { logsRequests: () => boolean },
): FastPath {
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET') return false;
    const url = request.url ?? '';
    if ((url !== PATH && !url.startsWith(`${PATH}?`)) || options.logsRequests()) return false;
    const picked = pickHeaders(request.rawHeaders);
    const write = (reply: ManifestReply): boolean => {
      if (!reply.ok) return false;
      response.writeHead(reply.answer.status, reply.answer.headers);
      response.end(reply.answer.body);
      observeAnswer(reply, picked, options, (performance.now() - started) / 1000);
      return true;
    };
    const reply = replyToManifest(picked, source);
    return reply instanceof Promise ? reply.then(write) : write(reply);
  };
}
