import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { ConsoleOidcConfig } from '../config/console-oidc-config.js';
import { consoleSessionRoute } from '../routes/api/console/session.js';
import { operatorTokensRoute } from '../routes/api/operator-tokens.js';
import {
  type AppDirectory,
  DEFAULT_APP_ONLY,
  OperatorAccess,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from './operator-access.js';
import { createOidcOperatorVerifier } from './operator-oidc.js';
import { OperatorTokenStore } from './operator-token-store.js';

export interface OperatorAccessPluginOptions {
  releaseToken: string | undefined;
  /** The app registry (apps/); the default app only without it. */
  apps?: AppDirectory;
  publicUrl: string;
  oidc: ConsoleOidcConfig | undefined;
  perMinute: number;
  now?: () => Date;
}

/** A console session lasts a working day; signing in again costs one paste of a token. */
export const CONSOLE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Operator access (issue 19): app.operatorAccess for every route that names an operator action,
 * cookie parsing, the console's session endpoints and the admins' token endpoints. Registered with
 * fastify-plugin so the decoration and the cookie parser reach the routes of every other plugin.
 */
export const operatorAccessPlugin = fp<OperatorAccessPluginOptions>(
  async (app, options) => {
    await app.register(fastifyCookie);
    const store = new OperatorTokenStore(app.database.db, options.now);
    const secure = options.publicUrl.startsWith('https://');
    app.decorate(
      'operatorAccess',
      new OperatorAccess({
        store,
        apps: options.apps,
        releaseToken: options.releaseToken,
        oidc: options.oidc ? createOidcOperatorVerifier(options.oidc) : undefined,
        cookieName: secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE,
        failures: app.authFailures,
      }),
    );
    consoleSessionRoute(app, {
      store,
      apps: options.apps ?? DEFAULT_APP_ONLY,
      secure,
      sessionTtlMs: CONSOLE_SESSION_TTL_MS,
      perMinute: options.perMinute,
      now: options.now,
    });
    operatorTokensRoute(app, { store, perMinute: options.perMinute });
  },
  { name: 'ferry-operator-access' },
);
