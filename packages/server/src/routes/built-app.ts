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

/**
 * The headers a built app's files are served with: `assets/` is named by content hash (Vite), so
 * it is cached for good, while index.html is always revalidated and carries the app's CSP.
 */
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
