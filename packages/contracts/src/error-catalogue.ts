/**
 * Every error code Ferry's server answers, with its HTTP status and what it means: the one list.
 * Clients branch on codes, so a code is never renamed and never changes its status. docs/errors.md
 * is generated from this list (`npm run openapi`), and test/error-catalogue.test.ts fails when the
 * server answers a code that is not here, or when a code here is answered nowhere.
 */

/** Which part of Ferry answers a code; docs/errors.md groups the codes by it. */
export type ErrorArea = 'every-endpoint' | 'ota' | 'operators' | 'certificates';

export interface ErrorCatalogueEntry {
  /** The HTTP status the code is answered with; `4xx` only for the framework's fallback code. */
  readonly status: number | '4xx';
  readonly area: ErrorArea;
  /** One line: when the code is answered, and what a client can do about it. */
  readonly meaning: string;
}

export const ERROR_CATALOGUE = {
  // Every endpoint: the parser, the router, validation, credentials, limits and outages.
  VALIDATION_FAILED: {
    status: 400,
    area: 'every-endpoint',
    meaning:
      'The request broke its schema or a rule the server checks; `details.fields` lists each field (`path`, `message`). Fix the input.',
  },
  INVALID_JSON: {
    status: 400,
    area: 'every-endpoint',
    meaning: 'The body is not JSON, or is empty while declared as JSON.',
  },
  MALFORMED_REQUEST: {
    status: 400,
    area: 'every-endpoint',
    meaning:
      'Not valid HTTP/1.1 (a raw non-ASCII byte in the path, a broken header) or a path that is not valid percent-encoding; the connection is closed.',
  },
  BAD_REQUEST: {
    status: '4xx',
    area: 'every-endpoint',
    meaning:
      'The framework refused the request with a client-error status that has no code of its own; the answer keeps that status.',
  },
  UNAUTHORIZED: {
    status: 401,
    area: 'every-endpoint',
    meaning:
      'No credential, or one that is not valid (`WWW-Authenticate` names the scheme). Refused credentials count towards `AUTH_FAILURE_LIMIT_PER_MINUTE`.',
  },
  FORBIDDEN: {
    status: 403,
    area: 'every-endpoint',
    meaning:
      'The credential is valid but may not do this (an operator role below the action; a private or expired object URL).',
  },
  NOT_FOUND: {
    status: 404,
    area: 'every-endpoint',
    meaning:
      'No route (also for the routes of an area that is off), or no such release, track, object, asset or operator token.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    area: 'every-endpoint',
    meaning: 'The framework refused the method for this path.',
  },
  NOT_ACCEPTABLE: {
    status: 406,
    area: 'every-endpoint',
    meaning:
      'The `accept` header allows nothing the endpoint serves, or the manifest protocol version is not 1; `details` says what is served.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    area: 'every-endpoint',
    meaning:
      'The request or its body did not arrive before its deadline (`BODY_TIMEOUT_MS`); the connection is closed.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    area: 'every-endpoint',
    meaning:
      'The body, an upload or an announced asset is larger than the server accepts (`RELEASE_BODY_LIMIT_BYTES`, `ASSET_UPLOAD_LIMIT_BYTES`, the signed size).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    area: 'every-endpoint',
    meaning: 'The body has a content type the endpoint does not read.',
  },
  RATE_LIMITED: {
    status: 429,
    area: 'every-endpoint',
    meaning:
      "Over a rate limit: the route's own, or refused credentials from this address; `Retry-After` says when to try again.",
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    area: 'every-endpoint',
    meaning: 'The request headers are larger than the server accepts; the connection is closed.',
  },
  INTERNAL: {
    status: 500,
    area: 'every-endpoint',
    meaning: 'A bug in Ferry, never bad input: the request changed nothing, and the server logged the error.',
  },
  UNAVAILABLE: {
    status: 503,
    area: 'every-endpoint',
    meaning:
      'A dependency (the database, the object store, the identity provider) cannot be reached, or the instance is starting; nothing changed, try again after `Retry-After`.',
  },
  STORAGE_FULL: {
    status: 507,
    area: 'every-endpoint',
    meaning:
      'The object storage has no room: nothing was stored. An operator must free space; then the same request succeeds.',
  },

  // OTA: publishing, rollback, rollouts, assets, garbage collection, bundle patches.
  NATIVE_FINGERPRINT_CHANGED: {
    status: 409,
    area: 'ota',
    meaning:
      "The guard refused a production release whose native fingerprint differs from its track's baseline: make a new store build (a new runtimeVersion).",
  },
  ASSET_MISSING: {
    status: 422,
    area: 'ota',
    meaning:
      'The release lists assets the object store does not hold, or that a garbage collection is deleting (`details.collecting`, `Retry-After`): upload them, then publish again.',
  },
  ASSET_URL_MISMATCH: {
    status: 422,
    area: 'ota',
    meaning:
      'The release lists an asset at a URL other than the one Ferry gives out for its hash (`details.mismatched`); nothing was stored.',
  },
  NO_EARLIER_RELEASE: {
    status: 404,
    area: 'ota',
    meaning: 'A rollback on a track with a single release: there is nothing to roll back to.',
  },
  ALREADY_ACTIVE: {
    status: 409,
    area: 'ota',
    meaning: "A rollback to the release that is already the track's active one.",
  },
  NO_ROLLOUT: {
    status: 404,
    area: 'ota',
    meaning: 'The release reached every device at once: it has no rollout to show or change.',
  },
  ROLLOUT_ENDED: {
    status: 409,
    area: 'ota',
    meaning: 'The rollout is complete, reverted or superseded; only a running or halted rollout changes.',
  },
  GROUP_CONFLICT: {
    status: 409,
    area: 'ota',
    meaning:
      'The release group already holds a release of this platform, or releases of another channel: a group is one publish of each platform to one channel. Publish with a new `groupId`.',
  },
  GROUP_SUPERSEDED: {
    status: 409,
    area: 'ota',
    meaning:
      "A release of the group is no longer its track's newest (`details.platform`, `activeReleaseId`), so the group cannot be rolled back as one; roll that track back on its own. Nothing changed.",
  },
  GC_IN_PROGRESS: {
    status: 409,
    area: 'ota',
    meaning: 'Another garbage collection holds the claim; run again once it has finished.',
  },
  EMBEDDED_BUNDLE_CONFLICT: {
    status: 409,
    area: 'ota',
    meaning: 'The embedded update id is already registered with other bytes: an update id names one bundle.',
  },
  HASH_MISMATCH: {
    status: 400,
    area: 'ota',
    meaning: 'An upload whose bytes do not have the SHA-256 its URL was signed for; nothing was stored.',
  },
  SIZE_MISMATCH: {
    status: 400,
    area: 'ota',
    meaning: 'An upload shorter or longer than the size its URL was signed for; nothing was stored.',
  },
  INVALID_OBJECT_KEY: {
    status: 400,
    area: 'ota',
    meaning:
      'An object path that is not a safe key (empty or dot segments, an encoded slash, not printable ASCII), or a local key that is a folder of another.',
  },

  // Operators and the release console.
  NO_OPERATOR_ROLE: {
    status: 403,
    area: 'operators',
    meaning: 'A valid OIDC token whose role claim names no Ferry role.',
  },
  NOT_A_CONSOLE_LOGIN: {
    status: 403,
    area: 'operators',
    meaning: 'The release token was offered as a console sign-in; sign in with an operator token.',
  },
  APP_FORBIDDEN: {
    status: 403,
    area: 'operators',
    meaning:
      'The credential has nothing in the app the request names (`ferry-app`): a release token of another app, or an operator not granted a role there.',
  },
  APP_NOT_FOUND: {
    status: 404,
    area: 'operators',
    meaning: 'No app has the slug the request names (`ferry-app` header or /api/apps/<slug>/…).',
  },
  APP_EXISTS: {
    status: 409,
    area: 'operators',
    meaning: 'An app with that slug exists already; slugs are never reused.',
  },
  APP_KEYS_UNAVAILABLE: {
    status: 503,
    area: 'operators',
    meaning:
      "The secret that seals apps' signing keys (APP_KEYS_SECRET) is not configured, or cannot open an app's key: that app can be neither created nor served.",
  },
  APP_ARCHIVED: {
    status: 403,
    area: 'operators',
    meaning: 'The app is archived: its devices are still served, but nothing can be published or changed.',
  },
  CSRF_HEADER_REQUIRED: {
    status: 403,
    area: 'operators',
    meaning: 'A change authenticated by the console cookie without the `x-ferry-console: 1` header.',
  },
  NAME_TAKEN: {
    status: 409,
    area: 'operators',
    meaning: 'An operator token with this name exists already (names are unique for ever: the audit log uses them).',
  },
  TOO_MANY_STREAMS: {
    status: 503,
    area: 'operators',
    meaning: 'The instance has as many console event streams open as it allows; `Retry-After` says when to try again.',
  },
  CONSOLE_NOT_BUILT: {
    status: 503,
    area: 'operators',
    meaning: 'The release console was not built, so `/console/` has nothing to serve.',
  },

  // Certificate issuance and the web funnel (docs/certificates.md, "Errors").
  UNSUPPORTED_PROVIDER: {
    status: 400,
    area: 'certificates',
    meaning:
      'The chosen vendor does not take this provider (`details.vendor`, `details.loginOrgCd`); no vendor call was made.',
  },
  VENDOR_MISMATCH: {
    status: 400,
    area: 'certificates',
    meaning: "The assignment's `certificateVendor` is not the request's vendor.",
  },
  NOT_CERTIFIED: {
    status: 403,
    area: 'certificates',
    meaning: 'A valid user token without the certified claim.',
  },
  AUTH_STATE_INVALID: {
    status: 403,
    area: 'certificates',
    meaning:
      "The vendor state is unknown (tampered) or belongs to another user, document, vendor, provider or assignment: start again (`details.approvalWindowSeconds`: the vendor's approval window).",
  },
  ASSIGNMENT_NOT_FOUND: {
    status: 404,
    area: 'certificates',
    meaning: "The assignment does not exist or is another user's.",
  },
  AUTHENTICATION_NOT_FOUND: {
    status: 404,
    area: 'certificates',
    meaning: "The authentication does not exist, is another user's, or was forgotten a day after it expired.",
  },
  AUTH_PENDING: {
    status: 409,
    area: 'certificates',
    meaning:
      'The second call came before the person approved in the provider app; repeat the same call after `Retry-After`.',
  },
  AUTH_EXPIRED: {
    status: 410,
    area: 'certificates',
    meaning:
      "The authentication expired or was used up, or its PDF was removed by retention: start again (`details.approvalWindowSeconds`: the vendor's approval window).",
  },
  VENDOR_REJECTED: {
    status: 422,
    area: 'certificates',
    meaning: 'The vendor refused the person, or the person cancelled in the provider app (`details.vendorCode`).',
  },
  VENDOR_ERROR: {
    status: 502,
    area: 'certificates',
    meaning:
      'The vendor failed, answered something that makes no sense for the step, or sent a document that is not a PDF.',
  },
  VENDOR_TIMEOUT: {
    status: 504,
    area: 'certificates',
    meaning: 'No vendor answer within `VENDOR_TIMEOUT_MS`.',
  },
  WEB_NOT_BUILT: {
    status: 503,
    area: 'certificates',
    meaning: 'The web certificate funnel was not built, so `/` has nothing to serve.',
  },
  WEB_MISCONFIGURED: {
    status: 503,
    area: 'certificates',
    meaning:
      'A production server refuses to serve a funnel built without its certificate key, or with another one (the log says which).',
  },
} as const satisfies Record<string, ErrorCatalogueEntry>;

/** A code Ferry answers. */
export type KnownErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code Ferry answers, in the catalogue's order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as readonly KnownErrorCode[];

/** Where the catalogue is published for people (the OpenAPI document links it). */
export const ERROR_CATALOGUE_URL = 'https://github.com/ferry-ota/ferry/blob/main/docs/errors.md';

export const isKnownErrorCode = (code: string): code is KnownErrorCode => Object.hasOwn(ERROR_CATALOGUE, code);
