import {
  APP_HEADER,
  AppSlug,
  CONSOLE_CSRF_HEADER,
  DEFAULT_APP,
  type KnownErrorCode,
  type OperatorGrant,
  type OperatorRole,
  roleInApp,
  serverRoleOf,
} from '@ferry/contracts';
import type { FastifyRequest } from 'fastify';
import { DependencyUnavailable, DomainError, InvalidInput, Unauthenticated } from '../errors/domain-error.js';
import type { AuthFailures } from '../http/auth-failures.js';
import { bearerTokenOf, tokensMatch } from '../http/bearer-token.js';
import { credentialHash, looksLikeOperatorToken } from './operator-credential.js';
import { looksLikeJwt, type OidcOperatorVerifier, OidcTokenRefused } from './operator-oidc.js';
import {
  mayPerform,
  OPERATOR_ACTIONS,
  type OperatorAction,
  type Principal,
  refusalMessage,
  whoMayPerform,
} from './operator-roles.js';
import { grantOfToken, type OperatorTokenStore } from './operator-token-store.js';

/**
 * Who a release-control request comes from (issue 19). `kind`: an operator token, an OIDC identity,
 * or the CI release token (OTA_RELEASE_TOKEN, id and name `release-token`, role `releaser`, which
 * may also publish and collect garbage but never sign in to the console or manage tokens).
 * `via`: how it was presented: the Authorization header, or the console's session cookie.
 */
export interface Operator {
  kind: 'token' | 'oidc' | 'release-token';
  id: string;
  name: string;
  /** The role in the app in view once authorized; before, the highest of the grants. */
  role: OperatorRole;
  /** Where the role applies: a token's one grant, an OIDC identity's claims. A release token's is its app, as a releaser. */
  grants: OperatorGrant[];
  /** A release token's app: the only app it acts on. */
  app?: string;
  via: 'bearer' | 'session';
  /** An OIDC token's exp (epoch ms): a console session made with it ends no later. */
  expiresAtMs?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireOperatorAction / requireOperatorRole once the request is admitted. */
    operator?: Operator;
    /** The app the request acts on (apps.md): set with `operator`. */
    appInView?: string;
  }
  interface FastifyInstance {
    /** Operator authentication and authorization (operator-access-plugin.ts). */
    operatorAccess: OperatorAccess;
  }
}

export const SESSION_COOKIE = 'ferry_console';
/** The cookie's name over https: the __Host- prefix makes browsers insist on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = '__Host-ferry_console';

const CHALLENGE = 'Bearer realm="ferry"';
const unauthenticated = (message: string) => new Unauthenticated(message, CHALLENGE);

export class OperatorForbidden extends DomainError {
  override name = 'OperatorForbidden';
  constructor(message: string, code: KnownErrorCode = 'FORBIDDEN', details: Record<string, unknown> = {}) {
    super('forbidden', code, message, details);
  }
}

/** Who the access rule judges: the release token is a principal of its own, people by their role. */
export const principalOf = (operator: Pick<Operator, 'kind' | 'role'>): Principal =>
  operator.kind === 'release-token' ? 'release-token' : operator.role;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What operator access needs to know of apps: whether one exists (and is archived), and an app's release tokens. */
export interface AppDirectory {
  find(slug: string): Promise<{ slug: string; archivedAt: number | null } | undefined>;
  /** Every app, archived ones included. */
  list(): Promise<Array<{ slug: string; name: string; archivedAt: number | null }>>;
  /** The app release token with this value (never OTA_RELEASE_TOKEN), if active. */
  releaseToken(token: string): Promise<{ id: string; name: string; app: string } | undefined>;
}

/** Only the default app, as before apps: what a server without the app registry wired answers. */
export const DEFAULT_APP_ONLY: AppDirectory = {
  find: async (slug) => (slug === DEFAULT_APP ? { slug, archivedAt: null } : undefined),
  list: async () => [{ slug: DEFAULT_APP, name: 'Default app', archivedAt: null }],
  releaseToken: async () => undefined,
};

export interface OperatorAccessOptions {
  store: OperatorTokenStore;
  /** The apps (apps/app-store.ts); the default app only when omitted. */
  apps?: AppDirectory;
  /** OTA_RELEASE_TOKEN; undefined when the OTA area is off. */
  releaseToken: string | undefined;
  /** The OIDC verifier when CONSOLE_OIDC_JWKS_URL is set. */
  oidc: OidcOperatorVerifier | undefined;
  /** The session cookie's name (SECURE_SESSION_COOKIE when PUBLIC_URL is https). */
  cookieName: string;
  /** Where refused credentials are counted per client address (http/auth-failures.ts). */
  failures: AuthFailures;
}

/**
 * Authenticates a release-control request (an operator token, an OIDC token, the release token, or
 * the console session cookie) and authorizes it with the one access rule, `mayPerform`. Every
 * credential is checked against the database on every request: a revoked token or an ended session
 * is refused by every instance at once. A refused credential counts against the client address, and
 * an address over the limit gets 429 whatever it presents (http/auth-failures.ts).
 */
export class OperatorAccess {
  constructor(private readonly options: OperatorAccessOptions) {}

  get apps(): AppDirectory {
    return this.options.apps ?? DEFAULT_APP_ONLY;
  }

  get cookieName(): string {
    return this.options.cookieName;
  }

  get failures(): AuthFailures {
    return this.options.failures;
  }

  /** The operator a bearer credential of this request names (counted when refused), or a 401/403/429/503 error. */
  verifyBearer(request: FastifyRequest, credential: string): Promise<Operator> {
    return this.options.failures.check(request, () => this.fromBearer(credential));
  }

  /** The operator a bearer credential names, or a 401/403/503 domain error. */
  private async fromBearer(credential: string): Promise<Operator> {
    if (looksLikeOperatorToken(credential)) {
      const token = await this.options.store.active(credential);
      if (!token) throw unauthenticated('The operator token is not valid or has been revoked.');
      await this.options.store.touch(token);
      return {
        kind: 'token',
        id: token.id,
        name: token.name,
        role: token.role,
        grants: [grantOfToken(token)],
        via: 'bearer',
      };
    }
    const { releaseToken, oidc } = this.options;
    if (releaseToken !== undefined && tokensMatch(credential, releaseToken)) {
      return releaseTokenOperator('release-token', 'release-token', DEFAULT_APP);
    }
    const appToken = await this.apps.releaseToken(credential);
    if (appToken) return releaseTokenOperator(appToken.id, appToken.name, appToken.app);
    if (oidc && looksLikeJwt(credential)) {
      try {
        const identity = await oidc(credential);
        return {
          kind: 'oidc',
          id: identity.subject,
          name: identity.name,
          role: identity.role,
          grants: identity.grants,
          via: 'bearer',
          expiresAtMs: identity.expiresAtMs,
        };
      } catch (error) {
        if (!(error instanceof OidcTokenRefused)) throw error;
        if (error.reason === 'no-role') throw new OperatorForbidden(error.message, 'NO_OPERATOR_ROLE');
        if (error.reason === 'unavailable') throw new DependencyUnavailable('identity provider');
        throw unauthenticated(error.message);
      }
    }
    throw unauthenticated('The bearer token is not valid.');
  }

  /** The operator of a console session cookie, or undefined when the session has ended (or never was). */
  async fromSession(sessionId: string): Promise<Operator | undefined> {
    const session = await this.options.store.session(credentialHash(sessionId));
    if (!session) return undefined;
    const id = session.kind === 'token' ? (session.tokenId ?? '') : session.subject;
    return { kind: session.kind, id, name: session.name, role: session.role, grants: session.grants, via: 'session' };
  }

  sessionIdOf(request: FastifyRequest): string | undefined {
    const value = request.cookies?.[this.options.cookieName];
    return value ? value : undefined;
  }

  /**
   * Who the request comes from: a bearer credential wins over the cookie (the CLI and CI never send
   * one). Throws 401 without any credential or with a bad one.
   */
  async authenticate(request: FastifyRequest): Promise<Operator> {
    const bearer = bearerTokenOf(request);
    if (bearer !== undefined) return this.verifyBearer(request, bearer);
    const sessionId = this.sessionIdOf(request);
    if (sessionId !== undefined) {
      return this.options.failures.check(request, async () => {
        const operator = await this.fromSession(sessionId);
        if (!operator) throw unauthenticated('The console session has ended; sign in again.');
        return operator;
      });
    }
    throw unauthenticated(
      'An operator token, or the release token, is required (Authorization: Bearer <token>), or a console session.',
    );
  }

  /**
   * Admits the request only when its operator may perform `action` in the app in view (appInView);
   * sets request.operator, with its role there, and request.appInView.
   */
  async authorize(request: FastifyRequest, action: OperatorAction): Promise<Operator> {
    const authenticated = await this.authenticate(request);
    guardCsrf(request, authenticated);
    const { slug: app, archivedAt } = await this.appInView(request, authenticated);
    const operator = inApp(authenticated, app, action);
    const principal = principalOf(operator);
    if (!mayPerform(principal, action)) throw forbidden(principal, operator.role, action);
    if (archivedAt !== null && action !== 'read' && action !== 'console.sign-in' && action !== 'apps.manage') {
      throw new DomainError(
        'forbidden',
        'APP_ARCHIVED',
        `App '${app}' is archived: its devices are still served, but nothing can be published or changed.`,
        { app },
      );
    }
    request.operator = operator;
    request.appInView = app;
    return operator;
  }

  /**
   * The app a request acts on: its `ferry-app` header (or `app` query parameter), else its credential's own app (a release
   * token's, or the one app a token is granted), else the default app. 400 for a malformed slug,
   * 404 for an app that does not exist.
   */
  async appInView(
    request: FastifyRequest,
    operator: Pick<Operator, 'grants' | 'app'>,
  ): Promise<{ slug: string; archivedAt: number | null }> {
    // An EventSource cannot send headers: the console's event stream names its app as `?app=`.
    const named = request.headers[APP_HEADER] ?? (request.query as { app?: string } | undefined)?.app;
    let app: string;
    if (named !== undefined) {
      const parsed = AppSlug.safeParse(Array.isArray(named) ? named[0] : named);
      if (!parsed.success) {
        throw new InvalidInput([
          { path: `headers.${APP_HEADER}`, message: parsed.error.issues[0]?.message ?? 'not an app slug' },
        ]);
      }
      app = parsed.data;
    } else {
      app = ownAppOf(operator) ?? DEFAULT_APP;
    }
    const found = await this.apps.find(app);
    if (!found) throw appNotFound(app);
    return found;
  }
}

const releaseTokenOperator = (id: string, name: string, app: string): Operator => ({
  kind: 'release-token',
  id,
  name,
  role: 'releaser',
  grants: [{ app, role: 'releaser' }],
  app,
  via: 'bearer',
});

/** The one app a credential belongs to, if it belongs to exactly one. */
function ownAppOf(operator: Pick<Operator, 'grants' | 'app'>): string | undefined {
  if (operator.app !== undefined) return operator.app;
  const apps = new Set(operator.grants.map((grant) => grant.app));
  const [only] = apps;
  return apps.size === 1 && only !== null ? only : undefined;
}

export const appNotFound = (app: string): DomainError =>
  new DomainError('not-found', 'APP_NOT_FOUND', `There is no app '${app}' on this server (ferry-server apps list).`, {
    app,
  });

/**
 * The operator as it acts in `app`: its role there (roleInApp; a server-wide action judges the
 * server-wide role), or 403 APP_FORBIDDEN when its credential has nothing in that app.
 */
function inApp(operator: Operator, app: string, action: OperatorAction): Operator {
  if (operator.kind === 'release-token') {
    // Managing apps is no app's: the one rule refuses it to the release token in its own words.
    if (operator.app === app || action === 'apps.manage') return operator;
    throw new OperatorForbidden(
      `This release token belongs to app '${operator.app}'; it cannot act on app '${app}'. Use the release token of app '${app}' (ferry-server apps token ${app} --name ci), or --app ${operator.app}.`,
      'APP_FORBIDDEN',
      { app, tokenApp: operator.app },
    );
  }
  const role = action === 'apps.manage' ? serverRoleOf(operator.grants) : roleInApp(operator.grants, app);
  if (role === undefined) {
    const mine = operator.grants.map((grant) => grant.app ?? '*').join(', ');
    throw new OperatorForbidden(
      action === 'apps.manage'
        ? 'Only an admin of every app may manage apps; your grants are per app.'
        : `You have no role in app '${app}' (your grants: ${mine}).`,
      'APP_FORBIDDEN',
      { app },
    );
  }
  return { ...operator, role };
}

/**
 * 403 in words, read off the one rule: who may do it and who is asking; the details carry the same
 * (`requiredRoles`: any one of them; `releaseTokenMay`) so a UI can hide or explain the action.
 */
export function forbidden(principal: Principal, role: OperatorRole, action: OperatorAction): OperatorForbidden {
  const who = whoMayPerform(action);
  return new OperatorForbidden(refusalMessage(principal, action), 'FORBIDDEN', {
    role,
    principal,
    action,
    requiredRoles: who.roles,
    releaseTokenMay: who.releaseToken,
  });
}

/**
 * CSRF defence for the cookie: a state-changing request authenticated by the session cookie must
 * carry `x-ferry-console: 1`. A cross-site form cannot set a custom header, and a cross-site fetch
 * that does needs a CORS preflight the server never grants. SameSite=Strict is the first line; this
 * is the second, for browsers or same-site subdomains where SameSite does not help.
 */
export function guardCsrf(request: FastifyRequest, operator: Pick<Operator, 'via'>): void {
  if (operator.via !== 'session' || SAFE_METHODS.has(request.method)) return;
  if (request.headers[CONSOLE_CSRF_HEADER] !== '1') {
    throw new OperatorForbidden(
      `A console request that changes something must carry the header ${CONSOLE_CSRF_HEADER}: 1.`,
      'CSRF_HEADER_REQUIRED',
    );
  }
}

/** An onRequest hook admitting only operators that may perform `action` (sets request.operator). */
export const requireOperatorAction =
  (action: OperatorAction) =>
  async (request: FastifyRequest): Promise<void> => {
    await request.server.operatorAccess.authorize(request, action);
  };

/**
 * An onRequest hook admitting operators whose role is at least `role`: who may do everything
 * `role` may (derived from the same table as requireOperatorAction, so there is one rule). The
 * release token counts as a releaser here for reads and release control, never as an admin.
 */
export const requireOperatorRole = (role: OperatorRole) => {
  const needed = OPERATOR_ACTIONS.filter((action) => mayPerform(role, action) && action !== 'console.sign-in');
  return async (request: FastifyRequest): Promise<void> => {
    const access = request.server.operatorAccess;
    const authenticated = await access.authenticate(request);
    guardCsrf(request, authenticated);
    const { slug: app } = await access.appInView(request, authenticated);
    const operator = inApp(authenticated, app, 'read');
    const principal = principalOf(operator);
    const missing = needed.find((action) => !mayPerform(principal, action));
    if (missing !== undefined) throw forbidden(principal, operator.role, missing);
    request.operator = operator;
    request.appInView = app;
  };
};

/** The app an authorized request acts on (set by requireOperatorAction / requireOperatorRole). */
export function appInViewOf(request: FastifyRequest): string {
  if (request.appInView === undefined) throw new Error('the route reads its app before it authorized the request');
  return request.appInView;
}

/** The audit actor of the request: `operator:<name>` for people; the release token keeps the CLI's own. */
export function auditActorOf(request: FastifyRequest, claimed: string | undefined): string {
  const operator = request.operator;
  if (!operator || operator.kind === 'release-token') return claimed ?? 'release-token';
  return `operator:${operator.name}`;
}

/** What an audit event records of who did it, besides the actor: the token id or OIDC subject. */
export function auditIdentityOf(request: FastifyRequest): Record<string, unknown> {
  const operator = request.operator;
  if (!operator || operator.kind === 'release-token') return {};
  return { operator: { kind: operator.kind, id: operator.id, via: operator.via } };
}
