import { z } from 'zod';
import { type OperatorRole, OperatorRoleSchema } from './operator-roles.js';

/**
 * Many apps on one Ferry (docs/apps.md). An app has a slug, which names it in URLs (its devices'
 * updates URL, /api/apps/<slug>/manifest), in the `ferry-app` header of release-control requests,
 * and in the CLI's `--app`.
 */
export const DEFAULT_APP = 'default';

/**
 * The header a release-control or console request names its app with. Without it a request acts
 * on its credential's own app (a release token's, or the one app a token is granted), else on the
 * default app: what every client did before there were apps.
 */
export const APP_HEADER = 'ferry-app';

/** Lowercase letters, digits and single hyphens, 2–40 characters, starting with a letter: safe in a URL path, an object key and a metric label. */
export const AppSlug = z
  .string()
  .regex(
    /^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/,
    'An app slug is 2–40 lowercase letters, digits and single hyphens, starting with a letter (e.g. my-app)',
  );
export type AppSlug = z.infer<typeof AppSlug>;

export const AppName = z.string().trim().min(1).max(80);

/** An app as the API lists it. */
export const AppView = z.object({
  slug: AppSlug,
  name: z.string(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  /** The key id its manifests are signed with (the keyid of expo-updates' codeSigningMetadata). */
  keyId: z.string(),
  /** Where its devices ask for updates, relative to the server (put PUBLIC_URL in front). */
  manifestPath: z.string(),
});
export type AppView = z.infer<typeof AppView>;

export const CreateAppRequest = z.object({
  slug: AppSlug,
  name: AppName.optional(),
});
export type CreateAppRequest = z.infer<typeof CreateAppRequest>;

export const CreateAppResponse = z.object({
  app: AppView,
  /** The app's first release token: shown once, never stored (only its hash is). */
  releaseToken: z.string(),
  /** The certificate the app embeds (expo-updates' codeSigningCertificate). */
  certificate: z.string(),
});
export type CreateAppResponse = z.infer<typeof CreateAppResponse>;

export const AppListResponse = z.object({ apps: z.array(AppView) });

export const AppParams = z.object({ slug: AppSlug }).strict();

/** A key and certificate to import instead of generating one (PEM); `keyId` defaults to `main`. */
export const ImportedAppKey = z
  .object({
    key: z.string().min(1).max(16_384),
    certificate: z.string().min(1).max(16_384),
    keyId: z
      .string()
      .regex(/^[A-Za-z0-9._:@+-]{1,64}$/)
      .optional(),
  })
  .strict();

export const CreateAppWithKeyRequest = CreateAppRequest.extend({ signingKey: ImportedAppKey.optional() }).strict();

export const RotateAppKeyRequest = z.object({ signingKey: ImportedAppKey.optional() }).strict();
export const RotateAppKeyResponse = z.object({ app: AppView, certificate: z.string() });

export const CreateAppReleaseTokenRequest = z.object({ name: z.string().trim().min(1).max(80) }).strict();
export const CreatedAppReleaseToken = z.object({ id: z.string(), name: z.string(), token: z.string() });

/** The path an app's devices ask for manifests on. The default app also keeps /api/updates/manifest. */
export const appManifestPath = (slug: string): string => `/api/apps/${slug}/manifest`;
/** The path of the default app's devices from before there were apps; it stays. */
export const LEGACY_MANIFEST_PATH = '/api/updates/manifest';

/**
 * The app an updates URL names: /api/apps/<slug>/manifest, or the default app for the legacy
 * /api/updates/manifest; undefined for any other URL (not a Ferry updates URL).
 */
export function appOfUpdatesUrl(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (path.replace(/\/+$/, '') === LEGACY_MANIFEST_PATH) return DEFAULT_APP;
  const match = /^\/api\/apps\/([^/]+)\/manifest\/?$/.exec(path);
  return match && AppSlug.safeParse(match[1]).success ? match[1] : undefined;
}

/**
 * What an operator is granted: a role in one app, or in every app (`app: null`, server-wide; an
 * admin's). A token carries one grant; an OIDC identity may carry several (docs/apps.md).
 */
export const OperatorGrant = z.object({ app: AppSlug.nullable(), role: OperatorRoleSchema });
export type OperatorGrant = z.infer<typeof OperatorGrant>;

const RANK: Record<OperatorRole, number> = { viewer: 0, releaser: 1, admin: 2 };

/**
 * The role an operator has in the app in view: the highest of the grants for that app or for every
 * app; undefined when none applies (the app is not theirs to see). `mayPerform` then decides with it.
 */
export function roleInApp(grants: readonly OperatorGrant[], app: string): OperatorRole | undefined {
  let best: OperatorRole | undefined;
  for (const grant of grants) {
    if (grant.app !== null && grant.app !== app) continue;
    if (best === undefined || RANK[grant.role] > RANK[best]) best = grant.role;
  }
  return best;
}

/** The role granted in every app (server-wide), if any: what server-wide actions (apps.manage) are judged by. */
export const serverRoleOf = (grants: readonly OperatorGrant[]): OperatorRole | undefined =>
  roleInApp(
    grants.filter((grant) => grant.app === null),
    DEFAULT_APP,
  );

/** The apps a set of grants names one by one, or `all` when one grant covers every app. */
export function appsOfGrants(grants: readonly OperatorGrant[]): 'all' | string[] {
  if (grants.some((grant) => grant.app === null)) return 'all';
  return [...new Set(grants.map((grant) => grant.app as string))];
}
