import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import type { TestServer } from '../support/test-server.js';

/**
 * A raw HTTP/1.1 client for hostile requests: fetch refuses to send NUL or line breaks in headers,
 * normalises paths and cannot show whether a HEAD answer carried a body. Every request here is
 * written byte for byte on a connection of its own (`Connection: close`) and read until the
 * server closes it.
 */
export interface RawRequest {
  method: string;
  /** Path and query exactly as written on the request line (already percent-encoded, or not). */
  target: string;
  headers: Array<[string, string]>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as sent (chunked encoding removed); for HEAD, whatever followed the head. */
  body: Buffer;
}

export function encodeRequest(url: string, request: RawRequest): Buffer {
  const { host } = new URL(url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  // Header values go out as UTF-8, so a control character is exactly that byte.
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body ?? Buffer.alloc(0)]);
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const end = body.indexOf('\r\n', at);
    if (end < 0) break;
    const size = Number.parseInt(body.subarray(at, end).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export function parseResponse(method: string, bytes: Buffer): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!Number.isInteger(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = bytes.subarray(end + 4);
  if (method !== 'HEAD') {
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
    else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  }
  return { status, headers, body };
}

/** Sends one request; resolves with the answer, or with the reason there was none. */
export function exchange(url: string, request: RawRequest, timeoutMs = HANG_GUARD_MS): Promise<RawResponse | string> {
  const { hostname, port } = new URL(url);
  const bytes = encodeRequest(url, request);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      // A server may answer and close while a large request is still being written: the answer counts.
      resolve(parseResponse(request.method, Buffer.concat(chunks)) ?? reason);
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    // No half-close: Node's server may drop a connection whose client ended it before the answer
    // was ready. `Connection: close` makes the server close it once it has answered.
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) =>
      finish(`connection error: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
    );
    socket.on('close', () => finish('connection closed without an answer'));
  });
}

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD, as in UTF-8). */
export const percentEncode = (value: string): string =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The tables a refused request must leave alone. */
export const COUNTED_TABLES = [
  'releases',
  'signed_manifests',
  'audit_events',
  'assignments',
  'certificate_authentication_states',
  'certificate_issuances',
  'embedded_bundles',
  'bundle_patches',
] as const;
export type Counts = Record<(typeof COUNTED_TABLES)[number] | 'objects', number>;

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let files = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    files += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  }
  return files;
}

/** Row counts of every table a request could write, in one query, plus the files of the local object store. */
export async function countRows(server: TestServer): Promise<Counts> {
  const selects = COUNTED_TABLES.map((table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`);
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(selects)}`.execute(
    server.app.database.db,
  );
  const row = rows[0] ?? {};
  const counts = Object.fromEntries(COUNTED_TABLES.map((table) => [table, Number(row[table])])) as Counts;
  counts.objects = countFiles(path.join(server.dataDir, 'objects'));
  return counts;
}

export const sameCounts = (a: Counts, b: Counts): boolean =>
  (Object.keys(a) as Array<keyof Counts>).every((key) => a[key] === b[key]);

/** The common error body, exactly: { error: { code, message, details } } with details an object. */
export function errorBodyProblem(response: RawResponse, method: string): string | undefined {
  if (method === 'HEAD')
    return response.body.length === 0 ? undefined : `HEAD answer carries ${response.body.length} body bytes`;
  if (!/^application\/json\b/i.test(response.headers['content-type'] ?? '')) {
    return `content-type ${JSON.stringify(response.headers['content-type'] ?? null)}, not JSON`;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `body is not JSON: ${JSON.stringify(response.body.toString('utf8').slice(0, 120))}`;
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const details = error?.details;
  const ok =
    body !== null &&
    typeof body === 'object' &&
    Object.keys(body).length === 1 &&
    typeof error?.code === 'string' &&
    typeof error.message === 'string' &&
    typeof details === 'object' &&
    details !== null &&
    !Array.isArray(details);
  return ok ? undefined : `not the common error body: ${JSON.stringify(body).slice(0, 200)}`;
}

/** A short, exact-enough description of a request for a report: long runs are counted, not printed. */
export function describeRequest(request: RawRequest): string {
  const shorten = (text: string) =>
    JSON.stringify(
      text.length > 300 ? `${text.slice(0, 120)}…(${text.length} chars)…${text.slice(-60)}` : text,
    ).replace(/(.)\1{40,}/g, (run, char) => `${char}×${run.length}`);
  const body = request.body === undefined ? '' : ` body=${shorten(Buffer.from(request.body).toString('utf8'))}`;
  const headers = request.headers.map(([name, value]) => `${name}: ${shorten(value)}`).join('; ');
  return `${request.method} ${shorten(request.target)} [${headers}]${body}`;
}
