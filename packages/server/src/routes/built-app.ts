import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';

/** Run from its TypeScript sources the server is in a checkout (tests, `npm start` through tsx). */
const fromSources = import.meta.url.endsWith('.ts');

/**
 * Where a built browser app (the web funnel, the console) is served from: the copy inside the
 * installed package (made when the package is packed), else the app's own build in this checkout.
 * From the sources it is always the checkout's build, so a copy an `npm pack` left behind can never
 * serve a stale page to the tests.
 */
export const builtAppRoot = (packaged: string, checkout: string): string =>
  !fromSources && fs.existsSync(packaged) ? packaged : checkout;

/** What a built app's directory holds but never serves: source maps, and the compressed forms by their own names. */
const UNSERVED = /\.(?:map|br|gz)$/;

/**
 * How a built app (the web funnel, the console) is served by @fastify/static:
 * - JavaScript and CSS in the form the request accepts: the build writes `.br` and `.gz` beside
 *   each file (scripts/vite-precompress.ts), chosen by `accept-encoding` with `vary:
 *   accept-encoding`, the file itself when none fits; nothing is compressed per request.
 * - `assets/` is named by content hash (Vite), so it is cached for good; index.html is always
 *   revalidated and carries the app's CSP.
 * - Source maps are never served (they would publish the sources), nor the `.br`/`.gz` files
 *   under their own names.
 */
export const builtAppServing = (root: string, options: { contentSecurityPolicy: string; frameOptions?: 'DENY' }) => ({
  preCompressed: true,
  allowedPath: (pathName: string) => !UNSERVED.test(pathName),
  setHeaders: builtAppHeaders(root, options),
});

/** The headers of a built app's files (see builtAppServing). */
export const builtAppHeaders =
  (root: string, options: { contentSecurityPolicy: string; frameOptions?: 'DENY' }) =>
  (reply: FastifyReply, filePath: string): void => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (options.frameOptions) reply.header('x-frame-options', options.frameOptions);
    const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
    reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (filePath.endsWith('.html')) reply.header('content-security-policy', options.contentSecurityPolicy);
  };
