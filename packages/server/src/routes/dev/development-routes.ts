import type { FastifyInstance } from 'fastify';
import { developmentSignInRoute } from './sign-in.js';
import { developmentWebConfigRoute } from './web-config.js';

export interface DevelopmentRoutesOptions {
  production: boolean;
  aesKey: Buffer;
  /** Undefined when user tokens are verified with JWKS: the server cannot sign those. */
  jwtSecret: string | undefined;
  certifiedClaim: string;
  issuer?: string;
  audience?: string;
  now?: () => Date;
}

/** The /dev routes the web funnel uses on a developer machine. Production never mounts them. */
export function developmentRoutes(app: FastifyInstance, options: DevelopmentRoutesOptions): void {
  if (options.production) return;
  developmentWebConfigRoute(app, { aesKey: options.aesKey });
  if (options.jwtSecret) {
    developmentSignInRoute(app, { ...options, jwtSecret: options.jwtSecret });
  } else {
    app.log.info('no /dev/sign-in: user tokens are verified with JWKS, which this server cannot sign');
  }
}
