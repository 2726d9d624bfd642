import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';

/**
 * The base URL clients reach this server at. PUBLIC_URL when configured; when the server was asked
 * for an ephemeral port (PORT=0, tests and benchmarks) the port is only known after listen, so the
 * address is read once it is, and kept: a request still answered while the server closes (which
 * stops listening first) gets the same URLs as before.
 */
export function publicUrlResolver(app: FastifyInstance, config: Pick<Config, 'publicUrl' | 'port'>): () => string {
  if (config.port !== 0 || !/:0$/.test(config.publicUrl)) return () => config.publicUrl;
  let listening: string | undefined;
  return () => {
    if (listening !== undefined) return listening;
    const address = app.server.address();
    if (typeof address === 'object' && address) {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      listening = `http://${host}:${address.port}`;
      return listening;
    }
    return config.publicUrl;
  };
}
