import { SignJWT } from 'jose';

export interface DevelopmentTokenOptions {
  userId: string;
  /** The HS256 secret the server verifies with (AUTH_JWT_SECRET or DATA_DIR/dev/jwt-secret). */
  secret: string;
  certified?: boolean;
  certifiedClaim?: string;
  /** Lifetime in seconds; default 12 hours. */
  expiresInSeconds?: number;
  issuer?: string;
  audience?: string;
  now?: Date;
}

/**
 * Signs a user token the way the app's identity provider would, for development and tests only:
 * the production server verifies tokens it never issues.
 */
export async function signDevelopmentToken(options: DevelopmentTokenOptions): Promise<string> {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const jwt = new SignJWT({ [options.certifiedClaim ?? 'certified']: options.certified ?? true })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 12 * 60 * 60));
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret));
}
