import { createHash, randomBytes } from 'node:crypto';
import { OPERATOR_TOKEN_PREFIX } from '@ferry/contracts';

/**
 * A new operator token: the prefix, then 32 random bytes (256 bits) in base64url. That much entropy
 * makes a fast, unsalted hash safe to store: nobody can guess their way to a token from its hash.
 */
export const newOperatorToken = (): string => `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** A console session id: random, 256 bits, never stored in clear either. */
export const newSessionId = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a token or a session id: its SHA-256, base64url. */
export const credentialHash = (credential: string): string =>
  createHash('sha256').update(credential).digest('base64url');

export const looksLikeOperatorToken = (value: string): boolean => value.startsWith(OPERATOR_TOKEN_PREFIX);
