import { DevelopmentSignInRequest, DevelopmentSignInResponse } from '@ferry/contracts';
import { signDevelopmentToken } from '@ferry/dev-tools/token';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export const DEVELOPMENT_USER_ID = 'dev-user';
const LIFETIME_SECONDS = 12 * 60 * 60;

export interface DevelopmentSignInOptions {
  /** The HS256 secret the server verifies user tokens with. */
  jwtSecret: string;
  certifiedClaim: string;
  issuer?: string;
  audience?: string;
  now?: () => Date;
}

/**
 * POST /dev/sign-in: a certified user token, so the web funnel works on a fresh checkout with no
 * host app. Mounted only outside production (see development-routes.ts).
 */
export function developmentSignInRoute(app: FastifyInstance, options: DevelopmentSignInOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/dev/sign-in',
    {
      schema: {
        summary: 'Development only: sign in as a certified user',
        tags: ['development'],
        body: DevelopmentSignInRequest.nullish(),
        response: { 200: DevelopmentSignInResponse },
      },
    },
    async (request) => {
      const userId = request.body?.userId ?? DEVELOPMENT_USER_ID;
      const now = options.now?.() ?? new Date();
      const token = await signDevelopmentToken({
        userId,
        secret: options.jwtSecret,
        certifiedClaim: options.certifiedClaim,
        expiresInSeconds: LIFETIME_SECONDS,
        issuer: options.issuer,
        audience: options.audience,
        now,
      });
      return { token, userId, expiresAt: new Date(now.getTime() + LIFETIME_SECONDS * 1000).toISOString() };
    },
  );
}
