import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../http/app-error.js';

/** Where `npm run build -w @ferry/web` writes the funnel (apps/web/dist of this checkout). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url));

/**
 * The page handles identity numbers, so it runs under a strict policy: only its own scripts,
 * styles and API; no inline script; not frameable by other sites.
 */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

const webHeaders =
  (root: string) =>
  (reply: FastifyReply, filePath: string): void => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // Vite names everything under assets/ by content hash; index.html must always be revalidated.
    const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
    reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
    if (filePath.endsWith('.html')) reply.header('content-security-policy', WEB_CONTENT_SECURITY_POLICY);
  };

export interface WebAppOptions {
  /** The built web app; DEFAULT_WEB_ROOT unless a test or deployment points elsewhere. */
  root: string;
}

/**
 * Serves the built web certificate funnel at `/`. Without a build it answers `/` with 503 and says
 * how to build, rather than failing start-up: the API does not depend on the page.
 */
export async function webAppRoutes(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  if (!fs.existsSync(path.join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'web app not built: run `npm run build -w @ferry/web`');
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .send(errorBody('WEB_NOT_BUILT', 'The web app is not built. Run `npm run build -w @ferry/web`, then reload.')),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/',
    decorateReply: false,
    index: ['index.html'],
    cacheControl: false,
    serveDotFiles: false,
    setHeaders: webHeaders(options.root),
    schemaHide: true,
  });
}
