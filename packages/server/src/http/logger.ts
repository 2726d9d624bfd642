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

/**
 * Whether request lines are logged (at debug, http-plugin.ts): the manifest fast path then leaves
 * every request to Fastify, which logs it. The level is a getter; it is read once.
 */
export function logsRequestLines(log: { readonly level: string }): boolean {
  const level = log.level;
  return level === 'debug' || level === 'trace';
}
