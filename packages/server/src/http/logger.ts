import type { LoggerOptions } from 'pino';

/**
 * Secrets never reach a log: authorization headers, cookies and any field named like a token,
 * key or identity number are censored wherever they appear.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.authorization',
  '*.token',
  '*.releaseToken',
  '*.accessToken',
  '*.privateKey',
  '*.identityEnc',
  '*.rrn2Enc',
];

export const loggerOptions = (level: string): LoggerOptions => ({
  level,
  redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
});
