import { DEFAULT_APP, LEGACY_MANIFEST_PATH } from '@ferry/contracts';
import type { FastPath } from '../../../http/fast-paths.js';
import { pickHeaders } from '../../../ota/manifest/manifest-headers.js';
import {
  type ManifestObservers,
  type ManifestReply,
  type ManifestSource,
  observeAnswer,
  replyToManifest,
} from '../../../ota/manifest/manifest-reply.js';

const APPS_PREFIX = '/api/apps/';
const MANIFEST_SUFFIX = '/manifest';
/** An app slug as contracts' AppSlug defines it; anything else is the route's to refuse. */
const SLUG = /^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;

/** The app a manifest URL names: /api/updates/manifest (the default app) or /api/apps/<slug>/manifest; else undefined. */
export function appOfManifestUrl(url: string): string | undefined {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path === LEGACY_MANIFEST_PATH) return DEFAULT_APP;
  if (!path.startsWith(APPS_PREFIX) || !path.endsWith(MANIFEST_SUFFIX)) return undefined;
  const slug = path.slice(APPS_PREFIX.length, -MANIFEST_SUFFIX.length);
  return SLUG.test(slug) ? slug : undefined;
}

/**
 * GET of a manifest URL answered before Fastify, with the route's reply (replyToManifest). The
 * route takes every request this does not: a refusal, HEAD, debug logging, an unknown app or a
 * failed load (the promise rejects, and FastPaths hands the request over).
 */
export function manifestFastPath(
  source: ManifestSource,
  options: ManifestObservers & { logsRequests: () => boolean },
): FastPath {
  return (request, response) => {
    const started = performance.now();
    if (request.method !== 'GET') return false;
    const app = appOfManifestUrl(request.url ?? '');
    if (app === undefined || options.logsRequests()) return false;
    const picked = pickHeaders(request.rawHeaders);
    const write = (reply: ManifestReply): boolean => {
      if (!reply.ok) return false;
      response.writeHead(reply.answer.status, reply.answer.headers);
      response.end(reply.answer.body);
      observeAnswer(reply, picked, options, (performance.now() - started) / 1000);
      return true;
    };
    const reply = replyToManifest(picked, app, source);
    return reply instanceof Promise ? reply.then(write) : write(reply);
  };
}
