import fs from 'node:fs';

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
