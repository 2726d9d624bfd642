import http from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CATALOGUE, type ErrorBody } from '@ferry/contracts';

/** The answer to a parser error: a code of the error catalogue, answered with the catalogue's status. */
interface ParserAnswer {
  code: 'REQUEST_TIMEOUT' | 'HEADERS_TOO_LARGE' | 'MALFORMED_REQUEST';
  message: string;
}

const ANSWER_OF: Record<string, ParserAnswer> = {
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
  HPE_HEADER_OVERFLOW: {
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are larger than the server accepts.',
  },
};
const MALFORMED: ParserAnswer = { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1.' };

/**
 * Requests Node's HTTP parser refuses (a raw non-ASCII byte in the path, a broken header) never
 * reach Fastify's handlers. They still get the common error body, no body on HEAD (the client would
 * read it as the start of its next response), and `Connection: close`: after a parse error the
 * stream position of the next request is unknown, so the connection cannot be reused.
 */
export function clientErrorHandler(error: Error, socket: Socket): void {
  const { code, rawPacket } = error as { code?: string; rawPacket?: unknown };
  if (code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const answer = (code && ANSWER_OF[code]) || MALFORMED;
    const status = ERROR_CATALOGUE[answer.code].status;
    const body: ErrorBody = { error: { code: answer.code, message: answer.message, details: {} } };
    const json = JSON.stringify(body);
    const head = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 5).toString('latin1') : undefined;
    const isHead = head === 'HEAD ' || head?.startsWith('HEAD\t') === true;
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        (isHead ? '' : json),
    );
  }
  socket.destroySoon();
}
