import { z } from 'zod';
import { ConfigError, type Env } from './env.js';

/**
 * Where `/metrics` is served (docs/metrics.md):
 * - `listener`: on a port of its own (METRICS_PORT, bound to METRICS_HOST); the main port does not
 *   serve it. A METRICS_TOKEN, when also set, is required there too.
 * - `main`: on the main port, behind the bearer token METRICS_TOKEN.
 * - `off`: neither is set; `/metrics` answers 404 like any unknown path.
 */
export type MetricsConfig =
  | { exposure: 'off' }
  | { exposure: 'main'; token: string }
  | { exposure: 'listener'; port: number; host: string; token: string | undefined };

const MetricsEnv = z.object({
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  METRICS_PORT: z
    .string()
    .regex(/^\d+$/, 'METRICS_PORT must be a whole number')
    .transform(Number)
    .refine((n) => n >= 0 && n <= 65535, 'METRICS_PORT must be between 0 and 65535')
    .optional(),
  METRICS_HOST: z.string().min(1).optional(),
});

/** Reads METRICS_TOKEN, METRICS_PORT and METRICS_HOST; `mainPort` is PORT, which METRICS_PORT may not equal. */
export function loadMetricsConfig(env: Env, mainPort: number): MetricsConfig {
  const parsed = MetricsEnv.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(first?.path[0] ?? 'METRICS_*')}: ${first?.message ?? 'invalid value'}`);
  }
  const { METRICS_TOKEN: token, METRICS_PORT: port, METRICS_HOST: host } = parsed.data;
  if (host !== undefined && port === undefined) {
    throw new ConfigError('METRICS_HOST needs METRICS_PORT: it is the address of the separate metrics listener');
  }
  if (port !== undefined) {
    // Port 0 asks the system for a free port (tests); two listeners cannot share one fixed port.
    if (port !== 0 && port === mainPort) {
      throw new ConfigError(`METRICS_PORT must differ from PORT (${mainPort}): it is a listener of its own`);
    }
    return { exposure: 'listener', port, host: host ?? '127.0.0.1', token };
  }
  if (token !== undefined) return { exposure: 'main', token };
  return { exposure: 'off' };
}
