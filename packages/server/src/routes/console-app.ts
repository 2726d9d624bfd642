import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-body.js';
import { builtAppRoot, builtAppServing } from './built-app.js';

/** The built console: `console/` of the installed package, or `npm run build -w @ferry/console`'s output. */
export const DEFAULT_CONSOLE_ROOT = builtAppRoot(
  fileURLToPath(new URL('../../console', import.meta.url)),
  fileURLToPath(new URL('../../../../apps/console/dist', import.meta.url)),
);

/** Only the console's own files and API: no inline script or style, not frameable. */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the release console at /console/ (its pages are hash routes, so index.html is the only
 * document). Not built: /console answers 503 and says how to build it; the API does not need it.
 */
export async function consoleAppRoutes(app: FastifyInstance, options: { root: string }): Promise<void> {
  if (!fs.existsSync(path.join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'console not built: run `npm run build -w @ferry/console`');
    for (const url of ['/console', '/console/']) {
      app.get(url, { schema: { hide: true } }, async (_request, reply) =>
        reply
          .code(503)
          .send(errorBody('CONSOLE_NOT_BUILT', 'The console is not built. Run `npm run build -w @ferry/console`.')),
      );
    }
    return;
  }
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: options.root,
      prefix: '/console/',
      decorateReply: false,
      index: ['index.html'],
      cacheControl: false,
      serveDotFiles: false,
      ...builtAppServing(options.root, {
        contentSecurityPolicy: CONSOLE_CONTENT_SECURITY_POLICY,
        frameOptions: 'DENY',
      }),
      schemaHide: true,
    });
  });
  // The pages' relative asset URLs resolve under /console/, so the bare path moves there first.
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301));
}
