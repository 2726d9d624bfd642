import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { TurnBudget, TurnPacer } from '../turn-pacer.js';

/**
 * Answers a request before Fastify routes it, or returns false (having written nothing) to leave it
 * to Fastify. A promise defers the choice: true once it answered, false (or a rejection) hands the
 * request to Fastify then, provided nothing was written.
 */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;

/**
 * Requests handed to Fastify in one turn of the event loop before the rest wait for later turns, a
 * pacer's slice per turn. Node parses every request that arrived in a turn before the loop moves
 * on, and without this Fastify would route each of them in that same turn: a crowd of devices
 * asking for a new bundle at once held the loop through every request's hooks and handler
 * (docs/decisions.md, "Fastify routes at most 64 requests per turn"). Steady traffic on up to 64
 * connections is still routed in the turn it arrives in, as the manifest fast path answers it.
 */
const ROUTED_PER_TURN = 64;

/**
 * Requests answered before Fastify's routing and hooks. Only for an answer that needs nothing
 * Fastify adds (no validation, no rate limit, no hooks that change it): the signed manifest of a
 * track, from memory or, for a track not in memory yet, once its one shared load ends. Everything else, and everything once the server starts
 * closing (Fastify answers 503 then), goes to Fastify. bench:manifest measured Fastify's own cost
 * per request at about a third of a bare node:http server's throughput (docs/benchmarks.md).
 */
export class FastPaths {
  private readonly paths: FastPath[] = [];
  private readonly routed = new TurnBudget(ROUTED_PER_TURN);
  private readonly pacer = new TurnPacer();
  /** The server's request handler (fast paths, then Fastify), once the server is made: the start-up warm-up sends through it. */
  listener: http.RequestListener | undefined;

  add(path: FastPath): void {
    this.paths.push(path);
  }

  /** From now on Fastify answers everything (start of shutdown). */
  clear(): void {
    this.paths.length = 0;
  }

  private answer(request: IncomingMessage, response: ServerResponse, fastify: () => void): void {
    for (const path of this.paths) {
      let taken: boolean | Promise<boolean>;
      try {
        taken = path(request, response);
      } catch {
        // Fastify answers it, with the common error body, unless something was already sent.
        if (response.headersSent) return;
        continue;
      }
      if (taken === true) return;
      if (taken !== false) {
        const handOver = () => {
          if (!response.headersSent) this.route(fastify);
        };
        taken.then((done) => (done ? undefined : handOver()), handOver);
        return;
      }
    }
    this.route(fastify);
  }

  /** Hands a request to Fastify now, or in a later turn when this one has routed its share (ROUTED_PER_TURN). */
  private route(fastify: () => void): void {
    if (this.routed.take()) fastify();
    else void this.pacer.turn().then(fastify);
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
    const listener: http.RequestListener = (request, response) => {
      this.answer(request, response, () => handler(request, response));
    };
    this.listener = listener;
    const server = http.createServer(options.http ?? {}, listener);
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
