import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { clientErrorHandler } from './client-error.js';

const timers = new WeakMap<IncomingMessage, NodeJS.Timeout>();

/** Whether the request announces a body (HTTP/1.1: a Content-Length above 0, or Transfer-Encoding). */
const hasBody = (raw: IncomingMessage): boolean =>
  raw.headers['transfer-encoding'] !== undefined ||
  (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0');

/**
 * A request's body must have arrived whole within the deadline. Past it the client gets what Node's
 * own request timeout sends, 408 `REQUEST_TIMEOUT` with `Connection: close` (client-error.ts), and
 * the connection is closed; once an answer was sent (Node then reads the rest of the body to reuse
 * the connection) the connection is closed without one. Node's `requestTimeout` is one setting for
 * the whole server and checked every 30 s; this one is per request, so an upload can be given longer
 * (extendBodyDeadline) once its signed URL is checked, while a client that sends a byte now and then
 * to an open route cannot hold a connection longer than the short deadline.
 */
export function bodyDeadline(timeoutMs: number): onRequestHookHandler {
  return (request, reply, done) => {
    if (hasBody(request.raw) && !request.raw.complete) arm(request, reply, timeoutMs);
    done();
  };
}

/** Gives the rest of this request's body `timeoutMs` from now (an authenticated upload). */
export function extendBodyDeadline(request: FastifyRequest, reply: FastifyReply, timeoutMs: number): void {
  const timer = timers.get(request.raw);
  if (timer === undefined) return;
  clearTimeout(timer);
  arm(request, reply, timeoutMs);
}

function arm(request: FastifyRequest, reply: FastifyReply, timeoutMs: number): void {
  const raw = request.raw;
  const first = !timers.has(raw);
  timers.set(
    raw,
    setTimeout(() => expire(raw, reply), timeoutMs),
  );
  if (!first) return;
  // 'close': the body was read whole (after 'end'), or the connection is gone.
  raw.once('close', () => {
    clearTimeout(timers.get(raw));
    timers.delete(raw);
  });
}

function expire(raw: IncomingMessage, reply: FastifyReply): void {
  timers.delete(raw);
  if (raw.complete) return;
  const socket = raw.socket;
  if (reply.raw.headersSent) {
    socket.destroy();
    return;
  }
  clientErrorHandler(
    Object.assign(new Error('The request body was not received in time.'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
    socket,
  );
}
