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
 * Requests handled in one turn of the event loop, by a fast path or by Fastify, before the rest wait
 * for later turns, a pacer's slice per turn. Node parses every request that arrived in a turn before
 * the loop moves on, and without this each of them would be answered in that same turn: a crowd of
 * devices asking at once would hold the loop for as long as all their answers take
 * (test/ota/release-day.test.ts). Steady traffic on up to this many connections is answered in the
 * turn it arrives in.
 */
const REQUESTS_PER_TURN = 64;

/**
 * Requests answered before Fastify's routing and hooks. Only for an answer that needs nothing
 * Fastify adds (no validation, no rate limit, no hooks that change it): the signed manifest of a
 * track, from memory or, for a track not in memory yet, once its one shared load ends. Everything
 * else, and everything once the server starts closing (Fastify answers 503 then), goes to Fastify,
 * whose routing and hooks cost a request several times what the manifest answer itself does.
 */
export class FastPaths {
  private readonly paths: FastPath[] = [];
  private readonly budget = new TurnBudget(REQUESTS_PER_TURN);
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

  /** Handles a request now, or in a later turn when this one has handled its share (REQUESTS_PER_TURN). */
  private handle(request: IncomingMessage, response: ServerResponse, fastify: () => void): void {
    if (this.budget.take()) this.answer(request, response, fastify);
    else void this.pacer.turn().then(() => this.answer(request, response, fastify));
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
          if (!response.headersSent) fastify();
        };
        taken.then((done) => (done ? undefined : handOver()), handOver);
        return;
      }
    }
    fastify();
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
      this.handle(request, response, () => handler(request, response));
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
