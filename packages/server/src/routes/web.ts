import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-body.js';
import { builtAppRoot, builtAppServing } from './built-app.js';

/** The built funnel: `web/` of the installed package, or `npm run build -w @ferry/web`'s output. */
export const DEFAULT_WEB_ROOT = builtAppRoot(
  fileURLToPath(new URL('../../web', import.meta.url)),
  fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url)),
);

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

export interface WebAppOptions {
  /** The built web app; DEFAULT_WEB_ROOT unless a test or deployment points elsewhere. */
  root: string;
  production: boolean;
  /** The server's CERT_AES_KEY: a production page must have been built with the same key. */
  aesKey: Buffer;
}

/** Why a production server will not serve this build, or undefined when it may. */
function productionBuildProblem(root: string, aesKey: Buffer): string | undefined {
  let built: unknown;
  try {
    built = JSON.parse(fs.readFileSync(path.join(root, 'ferry-web-build.json'), 'utf8'));
  } catch {
    return 'ferry-web-build.json is missing: rebuild the web app with `npm run build -w @ferry/web`';
  }
  const builtHash = (built as { certAesKeySha256?: unknown }).certAesKeySha256;
  if (typeof builtHash !== 'string') {
    return 'the web app was built without VITE_CERT_AES_KEY; rebuild it with this environment’s key';
  }
  if (builtHash !== createHash('sha256').update(aesKey).digest('hex')) {
    return 'the web app was built with a VITE_CERT_AES_KEY other than this server’s CERT_AES_KEY; rebuild it';
  }
  return undefined;
}

const unavailable = (app: FastifyInstance, code: 'WEB_NOT_BUILT' | 'WEB_MISCONFIGURED', message: string) =>
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.code(503).send(errorBody(code, message)));

/**
 * Serves the built web certificate funnel at `/`. A missing or mismatched build answers `/` with
 * 503 and says what to do, rather than failing start-up: the API does not depend on the page.
 */
export async function webAppRoutes(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  if (!fs.existsSync(path.join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'web app not built: run `npm run build -w @ferry/web`');
    unavailable(app, 'WEB_NOT_BUILT', 'The web app is not built. Run `npm run build -w @ferry/web`, then reload.');
    return;
  }
  const problem = options.production ? productionBuildProblem(options.root, options.aesKey) : undefined;
  if (problem) {
    // Serving it would encrypt identity numbers the server cannot read; say so once, loudly.
    app.log.error({ root: options.root }, `web app not served: ${problem}`);
    unavailable(app, 'WEB_MISCONFIGURED', 'The certificate page is not available in this environment.');
    return;
  }
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/',
    decorateReply: false,
    index: ['index.html'],
    cacheControl: false,
    serveDotFiles: false,
    ...builtAppServing(options.root, { contentSecurityPolicy: WEB_CONTENT_SECURITY_POLICY }),
    schemaHide: true,
  });
}
