/**
 * The app the console shows (many apps on one Ferry, docs/console.md "Apps"): kept here, in one
 * place, so every API request names it (api.ts sends it as the `ferry-app` header) without each
 * page passing it along. The session decides it (its `app`); this module only holds and remembers
 * it, as the language switch remembers the language.
 */

/** Where the app last shown is kept between visits (localStorage). */
export const APP_STORAGE_KEY = 'ferry.console.app';

let inView: string | undefined;

/** The app requests act on; undefined before a session chose one (the server then picks). */
export const appInView = (): string | undefined => inView;

/** The app shown last time, if storage has one. */
export function rememberedApp(): string | undefined {
  try {
    return window.localStorage.getItem(APP_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // storage blocked (private mode, policy): the server's choice, as on a first visit
  }
}

/** From now on requests act on `slug`, and the next visit opens it. */
export function showApp(slug: string): void {
  inView = slug;
  try {
    window.localStorage.setItem(APP_STORAGE_KEY, slug);
  } catch {
    // not remembered; this visit still shows it
  }
}
