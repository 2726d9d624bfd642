import type http from 'node:http';
import { ERROR_CATALOGUE, ErrorBody, isKnownErrorCode } from '@ferry/contracts';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';

// ajv-formats is CommonJS: under Node's ESM its default export is the module object holding `default`.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/** The parts of an OpenAPI 3.0 document the check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  content?: Record<string, { schema?: object }>;
}

/** One answer the document does not declare. Never the query or the body: they may hold tokens. */
export interface UndeclaredAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  reason: string;
}

/**
 * Requests the document deliberately leaves out, each with its reason. Anything else either matches
 * an operation of the document or answers the common 404 of an unknown route.
 */
export const UNDOCUMENTED: ReadonlyArray<{
  excludes: (method: string, path: string, status: number) => boolean;
  reason: string;
}> = [
  {
    excludes: (_method, path) => /^\/docs(\/|$)/.test(path),
    reason: 'the document itself and its viewer (@fastify/swagger-ui)',
  },
  {
    excludes: (_method, path) => path === '/metrics',
    reason: "an operator's Prometheus scrape target, not part of the API (docs/metrics.md)",
  },
  {
    // Their 404 is still checked: an unknown file answers the common 404 like any unknown route.
    excludes: (method, path, status) =>
      (method === 'GET' || method === 'HEAD') && status !== 404 && !/^\/(api|v2|objects|dev)\//.test(path),
    reason:
      'the pages for browsers: the built web funnel (/) and console (/console/), files named by each build and served by @fastify/static (or a 503 saying to build them)',
  },
];

/** The body every refusal carries (docs/errors.md), as a JSON Schema. */
const ERROR_BODY_SCHEMA = z.toJSONSchema(ErrorBody, { target: 'openapi-3.0' });

interface Operation {
  template: string;
  matcher: RegExp;
  /** How specific the template is: static segments win over parameters, as in Fastify's router. */
  rank: number;
  operations: Record<string, { responses?: Record<string, OpenApiResponse> }>;
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema, which ajv reads: `null` joins the types, or, where
 * the schema names no type (an anyOf), becomes an alternative of its own.
 */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, jsonSchemaOf(value)]));
  // OpenAPI 3.0 (draft 4) writes an exclusive bound as a flag beside the bound; ajv reads draft 7's number.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (converted[flag] === true) {
      converted[flag] = converted[bound];
      delete converted[bound];
    } else if (converted[flag] === false) delete converted[flag];
  }
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') {
    const withNull: Record<string, unknown> = { ...converted, type: [converted.type, 'null'] };
    if (Array.isArray(converted.enum) && !converted.enum.includes(null)) withNull.enum = [...converted.enum, null];
    return withNull;
  }
  return { anyOf: [converted, { type: 'null' }] };
}

const mediaType = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase();
const isJson = (media: string): boolean => media === 'application/json' || media.endsWith('+json');

/** Checks answers against the operations of one OpenAPI document. */
export class OpenApiAnswers {
  private readonly operations: Operation[];
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    this.operations = Object.entries(document.paths).map(([template, operations]) => {
      const segments = template.split('/').filter(Boolean);
      const pattern = segments
        .map((segment) =>
          segment === '*' || segment === '{*}'
            ? '.*'
            : segment
                .replace(/\{[^}]+\}/g, '\u0000')
                .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
                .replaceAll('\u0000', '[^/]*'),
        )
        .join('/');
      return {
        template,
        matcher: new RegExp(`^/${pattern}${template.endsWith('/') && segments.length > 0 ? '/' : ''}$`),
        rank:
          segments.filter((segment) => !segment.includes('{') && segment !== '*').length * 2 -
          (template.includes('*') ? 1 : 0),
        operations,
      };
    });
    this.operations.sort((a, b) => b.rank - a.rank);
  }

  /** The operation's path template, to name it in a report (a concrete path may hold an id). */
  templateOf(path: string): string | undefined {
    return this.operations.find((operation) => operation.matcher.test(path))?.template;
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(jsonSchemaOf(schema) as object);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  /**
   * Why the document does not declare this answer, or undefined when it does. A refusal must also
   * carry a code of the error catalogue, with the catalogue's status.
   */
  check(
    method: string,
    path: string,
    status: number,
    contentType: string,
    body: Buffer | undefined,
  ): string | undefined {
    if (UNDOCUMENTED.some((entry) => entry.excludes(method, path, status))) return undefined;
    return this.declaredProblem(method, path, status, contentType, body) ?? errorCodeProblem(status, contentType, body);
  }

  private declaredProblem(
    method: string,
    path: string,
    status: number,
    contentType: string,
    body: Buffer | undefined,
  ): string | undefined {
    const media = mediaType(contentType);
    const found = this.operations.find((operation) => operation.matcher.test(path));
    const verb = method.toLowerCase();
    // Fastify answers HEAD for every GET route: the GET operation declares what HEAD answers (without a body).
    const operation = found?.operations[verb] ?? (verb === 'head' ? found?.operations.get : undefined);
    if (!found || !operation) {
      // Fastify's router answers an unknown route (or an unknown method of a known one) with the
      // common 404, and a path that is not valid percent-encoding with the common 400 before it
      // routes (frameworkErrors): no operation can declare them, so the error body is checked.
      if (status !== 404 && status !== 400) return `no operation for ${method} ${found ? found.template : 'this path'}`;
      return this.bodyProblem(ERROR_BODY_SCHEMA, media, method, body);
    }
    const response = operation.responses?.[String(status)] ?? operation.responses?.default;
    if (!response) return `status ${status} is not declared for ${method} ${found.template}`;
    const content = response.content;
    if (!content || Object.keys(content).length === 0) {
      return body && body.length > 0 && method !== 'HEAD' ? `a body, where ${status} declares none` : undefined;
    }
    if (!contentType) {
      if (!body || body.length === 0) return undefined;
      return `a body without a content type, where ${status} declares ${Object.keys(content).join(', ')}`;
    }
    const declared = content[media] ?? content[`${media.split('/')[0]}/*`] ?? content['*/*'];
    if (!declared) return `content type ${media} is not declared for ${status} (${Object.keys(content).join(', ')})`;
    if (!isJson(media) || !declared.schema) return undefined;
    return this.bodyProblem(declared.schema, media, method, body);
  }

  private bodyProblem(schema: object, media: string, method: string, body: Buffer | undefined): string | undefined {
    if (method === 'HEAD' || !body || body.length === 0) return undefined;
    if (!isJson(media)) return `content type ${media}, where the common JSON error body is expected`;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return 'a body that is not JSON';
    }
    const validate = this.validator(schema);
    if (validate(value)) return undefined;
    // Where it fails and why, never the value: bodies may hold tokens or identity numbers.
    return `body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }
}

/**
 * Why a refusal's error body breaks the error catalogue (packages/contracts/src/error-catalogue.ts):
 * a code it does not list, or another status than the one it gives. Only the code is read.
 */
export function errorCodeProblem(status: number, contentType: string, body: Buffer | undefined): string | undefined {
  if (status < 400 || !body || body.length === 0 || !isJson(mediaType(contentType))) return undefined;
  let code: unknown;
  try {
    code = (JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } } | null)?.error?.code;
  } catch {
    return undefined;
  }
  if (typeof code !== 'string') return undefined;
  if (!isKnownErrorCode(code))
    return `error code ${code} is not in the error catalogue (packages/contracts/src/error-catalogue.ts)`;
  const catalogued = ERROR_CATALOGUE[code].status;
  const agrees = catalogued === '4xx' ? status < 500 : catalogued === status;
  return agrees ? undefined : `error code ${code} answered with ${status}; the error catalogue gives ${catalogued}`;
}

/** Stands for a body that is not JSON: the check reads only that there is one. */
const SOME_BODY = Buffer.from(' ');

/** JSON bodies are kept up to this size for the check; a longer one is checked for its status and type only. */
const KEPT_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Watches every answer of a node:http server at the socket's edge, so answers written before
 * Fastify (the manifest fast path, http/fast-paths.ts) are seen as well as Fastify's own. The
 * document is read on the first answer (the server is ready by then).
 */
export function watchAnswers(server: http.Server, document: () => OpenApiDocument): UndeclaredAnswer[] {
  const undeclared: UndeclaredAnswer[] = [];
  let answers: OpenApiAnswers | undefined;
  const listeners = server.listeners('request') as http.RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let contentType: string | undefined;
    // Only a JSON body is validated, so only a JSON body is kept (by reference): a download is
    // neither copied nor held, and a crowd of them costs the test server nothing.
    let keeping: boolean | undefined;
    /** Whether anything but a JSON body was sent (the check only needs to know there was one). */
    let sentOther = false;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || kept > KEPT_BODY_BYTES) return;
      keeping ??= isJson(mediaType(contentType ?? String(response.getHeader('content-type') ?? '')));
      if (!keeping) {
        sentOther ||= (chunk as { length?: number }).length !== 0;
        return;
      }
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      kept += buffer.length;
      if (kept <= KEPT_BODY_BYTES) chunks.push(buffer);
    };
    const writeHead = response.writeHead;
    response.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      const headers = args.find((arg, index) => index > 0 && typeof arg === 'object' && arg !== null);
      if (Array.isArray(headers)) {
        for (let i = 0; i + 1 < headers.length; i += 2) {
          if (String(headers[i]).toLowerCase() === 'content-type') contentType = String(headers[i + 1]);
        }
      } else if (headers) {
        for (const [name, value] of Object.entries(headers)) {
          if (name.toLowerCase() === 'content-type') contentType = String(value);
        }
      }
      return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof response.writeHead;
    const write = response.write;
    response.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).apply(this, [chunk, ...rest]);
    } as typeof response.write;
    const end = response.end;
    response.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...a: unknown[]) => http.ServerResponse).apply(this, [chunk, ...rest]);
    } as typeof response.end;
    response.once('finish', () => {
      answers ??= new OpenApiAnswers(document());
      const type = contentType ?? String(response.getHeader('content-type') ?? '');
      const path = (request.url ?? '/').split('?')[0]!;
      const body = kept > KEPT_BODY_BYTES ? undefined : sentOther ? SOME_BODY : Buffer.concat(chunks);
      const reason = answers.check(request.method ?? 'GET', path, response.statusCode, type, body);
      if (reason) {
        undeclared.push({
          method: request.method ?? 'GET',
          path: answers.templateOf(path) ?? path,
          status: response.statusCode,
          contentType: type,
          reason,
        });
      }
    });
    for (const listener of listeners) listener.call(server, request, response);
  });
  return undeclared;
}

/** The list a failing close() shows: one line per distinct answer, most frequent first. */
export function describeUndeclared(undeclared: UndeclaredAnswer[]): string {
  const counts = new Map<string, number>();
  for (const answer of undeclared) {
    const line = `${answer.method} ${answer.path} → ${answer.status} ${answer.contentType || '(no content type)'}: ${answer.reason}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([line, count]) => (count > 1 ? `${line} (×${count})` : line))
    .join('\n');
}
