import { APP_ENV_VARIABLE } from './app-choice.js';

const named = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The server's refusal of an app, with what to do about it: APP_FORBIDDEN (the release token
 * belongs to another app) and APP_NOT_FOUND (no such app). Undefined for any other refusal, which
 * keeps the server's own message.
 */
export function appRefusalMessage(code: string, message: string, details: Record<string, unknown>): string | undefined {
  const app = named(details.app);
  if (code === 'APP_FORBIDDEN') {
    const tokenApp = named(details.tokenApp);
    const useToken = app
      ? `use the release token of app '${app}' as OTA_RELEASE_TOKEN (an admin makes one with \`ferry-server apps token ${app} --name ci\`)`
      : 'use a release token of the app you named as OTA_RELEASE_TOKEN';
    const orApp = tokenApp ? `, or --app ${tokenApp} to act on the token's own app` : '';
    return `${message} Fix: ${useToken}${orApp}.`;
  }
  if (code === 'APP_NOT_FOUND') {
    const which = app ? `app '${app}'` : 'the app';
    return (
      `${message} Fix: check the slug of ${which} (--app, ${APP_ENV_VARIABLE}, or the app config's updates.url); ` +
      '`ferry-server apps list` shows the apps of the server, and an admin adds one with `ferry-server apps create <slug>`.'
    );
  }
  return undefined;
}
