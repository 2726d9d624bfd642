import { z } from 'zod';
import { ConfigError, type Env } from './env.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

/**
 * How the HTTP server treats its clients' connections (docs/configuration.md, "HTTP server";
 * decisions.md, "HTTP limits"): which proxies it believes about the client's address, and how long a
 * client may take to send a request or hold a connection.
 */
export interface HttpConfig {
  /** TRUST_PROXY: Fastify's `trustProxy`; `false` (the default) believes no X-Forwarded-For. */
  trustProxy: TrustProxy;
  /** Node's headersTimeout: the request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** From the request's headers to the last byte of its body, every route but authenticated uploads. */
  bodyTimeoutMs: number;
  /** The same for a signed upload (`PUT /objects/…`) once its signature is checked. */
  uploadTimeoutMs: number;
  /** A socket that sends and receives nothing for this long is closed (Fastify's connectionTimeout). */
  idleTimeoutMs: number;
  /** How long a kept-alive connection may wait for its next request (Node's keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  /** Open connections one peer address may hold; 0 for no limit (the default: see decisions.md). */
  maxConnectionsPerAddress: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const ms = (name: string, min: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of milliseconds`)
    .transform(Number)
    .refine((n) => n >= min && n <= DAY_MS, `${name} must be between ${min} and ${DAY_MS}`)
    .optional();

const HttpEnv = z.object({
  TRUST_PROXY: z.string().optional(),
  HEADERS_TIMEOUT_MS: ms('HEADERS_TIMEOUT_MS', 1),
  BODY_TIMEOUT_MS: ms('BODY_TIMEOUT_MS', 1),
  UPLOAD_TIMEOUT_MS: ms('UPLOAD_TIMEOUT_MS', 1),
  IDLE_TIMEOUT_MS: ms('IDLE_TIMEOUT_MS', 1),
  KEEP_ALIVE_TIMEOUT_MS: ms('KEEP_ALIVE_TIMEOUT_MS', 1),
  MAX_CONNECTIONS_PER_ADDRESS: z
    .string()
    .regex(/^\d+$/, 'MAX_CONNECTIONS_PER_ADDRESS must be a whole number (0 for no limit)')
    .transform(Number)
    .refine((n) => n <= 1_000_000, 'MAX_CONNECTIONS_PER_ADDRESS must be at most 1000000')
    .optional(),
});

export const HTTP_DEFAULTS = {
  headersTimeoutMs: 20_000,
  bodyTimeoutMs: 30_000,
  // 100 MiB (ASSET_UPLOAD_LIMIT_BYTES' default) at about 0.5 Mbit/s.
  uploadTimeoutMs: 30 * 60_000,
  idleTimeoutMs: 120_000,
  // Above the 60 s idle timeout of common load balancers, so they close an idle connection first.
  keepAliveTimeoutMs: 72_000,
} as const;

/** Reads TRUST_PROXY, the request timeouts and MAX_CONNECTIONS_PER_ADDRESS. */
export function loadHttpConfig(env: Env): HttpConfig {
  const parsed = HttpEnv.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(first?.path[0] ?? 'HTTP setting')}: ${first?.message ?? 'invalid value'}`);
  }
  const trustProxy = parseTrustProxy(parsed.data.TRUST_PROXY);
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy)) {
    throw new ConfigError(`Invalid TRUST_PROXY: ${trustProxy.error}`);
  }
  const data = parsed.data;
  return {
    trustProxy,
    headersTimeoutMs: data.HEADERS_TIMEOUT_MS ?? HTTP_DEFAULTS.headersTimeoutMs,
    bodyTimeoutMs: data.BODY_TIMEOUT_MS ?? HTTP_DEFAULTS.bodyTimeoutMs,
    uploadTimeoutMs: data.UPLOAD_TIMEOUT_MS ?? HTTP_DEFAULTS.uploadTimeoutMs,
    idleTimeoutMs: data.IDLE_TIMEOUT_MS ?? HTTP_DEFAULTS.idleTimeoutMs,
    keepAliveTimeoutMs: data.KEEP_ALIVE_TIMEOUT_MS ?? HTTP_DEFAULTS.keepAliveTimeoutMs,
    maxConnectionsPerAddress: data.MAX_CONNECTIONS_PER_ADDRESS ?? 0,
  };
}

/**
 * The Fastify server options these settings become. Node's requestTimeout is only the backstop of
 * the body deadlines (http/body-deadline.ts), which bound each request's body more tightly; it must
 * not be below headersTimeout (Node refuses that).
 */
export function serverTimeoutOptions(http: HttpConfig) {
  const requestTimeout = Math.max(http.headersTimeoutMs, http.bodyTimeoutMs, http.uploadTimeoutMs);
  return {
    requestTimeout,
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    http: { headersTimeout: http.headersTimeoutMs, requestTimeout },
  };
}
