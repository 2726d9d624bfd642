import { DevelopmentWebConfigResponse } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * GET /dev/web-config: the AES key for a web build made without VITE_CERT_AES_KEY (the one
 * `npm ci` makes). The key is public by design (every client embeds it); production builds carry
 * their environment's key, and this route does not exist there.
 */
export function developmentWebConfigRoute(app: FastifyInstance, options: { aesKey: Buffer }): void {
  const body = { certAesKey: options.aesKey.toString('base64') };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dev/web-config',
    {
      schema: {
        summary: 'Development only: the web funnel configuration',
        tags: ['development'],
        response: { 200: DevelopmentWebConfigResponse },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(body),
  );
}
