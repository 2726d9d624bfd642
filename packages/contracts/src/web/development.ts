import { z } from 'zod';
import { lineText } from '../text.js';

/**
 * Development-only routes the web funnel uses when no host app and no build-time key exist. The
 * server mounts them only when NODE_ENV is not production.
 */

/** POST /dev/sign-in: a certified user token for local use; the user id defaults to `dev-user`. */
export const DevelopmentSignInRequest = z.object({ userId: lineText().trim().min(1).max(255).optional() }).strict();
export type DevelopmentSignInRequest = z.infer<typeof DevelopmentSignInRequest>;

export const DevelopmentSignInResponse = z.object({
  token: z.string(),
  userId: z.string(),
  expiresAt: z.iso.datetime(),
});
export type DevelopmentSignInResponse = z.infer<typeof DevelopmentSignInResponse>;

/** GET /dev/web-config: what a web build without VITE_CERT_AES_KEY needs from the development server. */
export const DevelopmentWebConfigResponse = z.object({
  /** Base64 of the server's 32-byte certificate AES key (public by design: the clients embed it). */
  certAesKey: z.string(),
});
export type DevelopmentWebConfigResponse = z.infer<typeof DevelopmentWebConfigResponse>;
