import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/** Answers a request before Fastify routes it, or returns false (having written nothing) to leave it to Fastify. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Requests answered before Fastify's routing and hooks. Only for an answer that is already in
 * memory and needs nothing Fastify adds (no validation, no rate limit, no hooks that change it):
 * the signed manifest of a cached track. Everything else, and everything once the server starts
 * closing (Fastify answers 503 then), goes to Fastify. bench:manifest measured Fastify's own cost
 * per request at about a third of a bare node:http server's throughput (docs/benchmarks.md).
 */
export class FastPaths {
  private readonly paths: FastPath[] = [];

  add(path: FastPath): void {
    this.paths.push(path);
  }

  /** From now on Fastify answers everything (start of shutdown). */
  clear(): void {
    this.paths.length = 0;
  }

  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    for (const path of this.paths) {
      try {
        if (path(request, response)) return true;
      } catch {
        // Fastify answers it, with the common error body, unless something was already sent.
        if (response.headersSent) return true;
      }
    }
    return false;
  }

  /** The HTTP/1 server Fastify would make (same timeouts), with the fast paths in front of it. */
  readonly serverFactory: FastifyServerFactory = (handler, rawOptions) => {
    // Fastify hands its options with defaults applied; these are the ones it sets on its own server.
    const options = rawOptions as {
      http?: http.ServerOptions;
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
      maxRequestsPerSocket: number;
    };
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (!this.answer(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
