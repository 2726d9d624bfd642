import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import {
  bodyFor,
  type CertificateTestServer,
  startCertificateServer,
  TEST_OPERATOR_TOKEN,
} from '../support/certificates.js';
import { describeEachEngine, type EngineName } from '../support/engines.js';
import { OpenApiAnswers, type OpenApiDocument } from '../support/openapi-answers.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import {
  type Counts,
  countRows,
  describeRequest,
  errorBodyProblem,
  exchange,
  percentEncode,
  type RawRequest,
  type RawResponse,
  sameCounts,
} from './hostile-http.js';

/**
 * The attack of issue 16, kept as a test: every operation the OpenAPI document lists (plus the
 * hidden /objects routes) gets a battery of hostile requests, with and without valid credentials.
 * Every answer must be below 500, every error must carry the common body (HEAD: no body), and a
 * refused request must leave the database and the object store as they were (counted after every
 * request that could write). Only valid-but-strange input (an emoji, U+2028, DEL) may be accepted
 * and stored; a control character or a lone surrogate never may. Defects of the certificate area
 * are listed in KNOWN_ELSEWHERE, reported by the run and kept as `it.fails` rows at the end.
 *
 * Deterministic: one seeded generator (FUZZ_SEED overrides the seed), a fixed battery and a fixed
 * number of random cases per operation.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x16_16);
const RANDOM_CASES_PER_OPERATION = 20;
/** Share of the per-field cases also sent without credentials (all structural cases are). */
const UNAUTHENTICATED_SHARE = 0.25;

/** mulberry32: small, seeded, good enough to pick cases. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}
type Random = ReturnType<typeof seededRandom>;

// ---------------------------------------------------------------------------------------------
// The operations, read from the OpenAPI document

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

type AuthKind = 'release' | 'admin' | 'user' | 'operator' | 'none';

interface Operation {
  method: string;
  /** With `{name}` placeholders. */
  path: string;
  pathParams: Record<string, string>;
  query: Array<{ name: string; required: boolean; schema: JsonSchema }>;
  baseQuery: Record<string, string>;
  /** Headers that are input to the operation (the manifest request), with valid values. */
  headers: Array<[string, string]>;
  body?: { kind: 'json'; schema: JsonSchema; base: unknown } | { kind: 'bytes' };
  auth: AuthKind;
}

const UUID = '00000000-0000-4000-8000-000000000000';
const HASH = 'A'.repeat(43);
const PATTERN_EXAMPLES: Record<string, string> = {
  '^[A-Za-z0-9_-]{43}$': HASH,
  '^[\\x21-\\x7e](?:[\\x20-\\x7e]*[\\x21-\\x7e])?$': '1.0.0',
  '^\\.[A-Za-z0-9]{1,32}$': '.js',
  '^[A-Za-z0-9!#$&^_.+-]+\\/[A-Za-z0-9!#$&^_.+-]+(\\s*;[\\x20-\\x7e]*)?$': 'application/javascript',
  '^\\d{6}$': '880415',
  '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$': 'QUJD',
};

/** A value the schema admits (as far as JSON Schema can say: zod refinements are not in it). */
function exampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return exampleOf(schema.anyOf[0]);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return UUID;
      if (schema.format === 'uri') return 'https://cdn.example.test/x.js';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.pattern) return PATTERN_EXAMPLES[schema.pattern] ?? 'x';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? [exampleOf(schema.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, exampleOf(value)]));
    default:
      return 'x';
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether JSON Schema alone admits the value; used to keep "wrong type" cases wrong. */
function conforms(schema: JsonSchema | undefined, value: unknown): boolean {
  if (!schema) return true;
  if (value === null) return schema.nullable === true || (schema.anyOf?.some((s) => conforms(s, null)) ?? false);
  if (schema.anyOf) return schema.anyOf.some((s) => conforms(s, value));
  if (schema.enum) return schema.enum.includes(value);
  switch (schema.type) {
    case 'string':
      return (
        typeof value === 'string' &&
        value.length >= (schema.minLength ?? 0) &&
        value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
        (!schema.pattern || new RegExp(schema.pattern).test(value)) &&
        (schema.format !== 'uuid' || UUID_PATTERN.test(value)) &&
        (schema.format !== 'uri' || URL.canParse(value))
      );
    case 'integer':
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (schema.type === 'number' || Number.isSafeInteger(value)) &&
        value >= (schema.minimum ?? Number.NEGATIVE_INFINITY) &&
        value <= (schema.maximum ?? Number.POSITIVE_INFINITY)
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return (
        Array.isArray(value) &&
        value.length >= (schema.minItems ?? 0) &&
        value.length <= (schema.maxItems ?? Number.POSITIVE_INFINITY) &&
        value.every((item) => conforms(schema.items, item))
      );
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      if (!(schema.required ?? []).every((key) => key in record)) return false;
      if (schema.additionalProperties === false && Object.keys(record).some((key) => !schema.properties?.[key]))
        return false;
      return Object.entries(record).every(([key, item]) => conforms(schema.properties?.[key], item));
    }
    default:
      return true;
  }
}

/** Whether raw JSON text (1e999 and the like) parses to a value the schema admits. */
function conformsAsText(schema: JsonSchema | undefined, text: string): boolean {
  try {
    return conforms(schema, JSON.parse(text));
  } catch {
    return false;
  }
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** A stream that stays open (the console's events): a request/answer battery would wait on it forever. */
const isEndlessStream = (operation: OpenApiOperation): boolean =>
  operation.responses?.['200']?.content?.['text/event-stream'] !== undefined;

const authOf = (path: string, operation: OpenApiOperation): AuthKind =>
  // Operator tokens and apps are managed by admins only; the release token may not (issues 19, 39).
  path.startsWith('/api/operator-tokens') || path === '/api/apps' || path.startsWith('/api/apps/{slug}')
    ? 'admin'
    : operation.security?.length
      ? 'release'
      : path.startsWith('/v2/user/')
        ? 'user'
        : path.startsWith('/v2/operator/')
          ? 'operator'
          : 'none';

interface Seeded {
  runtimeVersion: string;
  adminToken: string;
  assignmentId: string;
  userId: string;
}

/** Valid bodies the test suites already build; a mutation of a valid body reaches deepest. */
function knownBody(method: string, path: string, seeded: Seeded): unknown {
  const known: Record<string, () => unknown> = {
    'POST /api/updates/release': () => releasePayload({ runtimeVersion: seeded.runtimeVersion }),
    'POST /api/updates/assets': () => ({
      channel: 'production',
      runtimeVersion: seeded.runtimeVersion,
      assets: [{ hash: HASH, contentType: 'application/javascript', size: 10 }],
    }),
    'POST /api/updates/rollback': () => ({
      channel: 'production',
      platform: 'ios',
      runtimeVersion: seeded.runtimeVersion,
      actor: 'ci',
      runId: '1',
    }),
    'POST /api/updates/gc': () => ({ keepPerTrack: 10, dryRun: true, actor: 'ci', runId: '1' }),
    'POST /v2/user/certificate/resident-certificate': () => bodyFor('resident-certificate'),
    'POST /v2/user/certificate/resident-abstract': () => bodyFor('resident-abstract'),
    'POST /v2/user/certificate/family-relations': () => bodyFor('family-relations'),
    'POST /v2/operator/assignments': () => ({ userId: seeded.userId, certificateVendor: 'VENDOR_A', title: 'T' }),
    'POST /dev/sign-in': () => ({ userId: 'fuzz-user' }),
  };
  return known[`${method} ${path}`]?.();
}

function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }, seeded: Seeded): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    // /objects takes a key of many segments, which the document's wildcard cannot name: added below.
    if (path.startsWith('/objects/')) continue;
    for (const [lower, operation] of Object.entries(methods)) {
      if (isEndlessStream(operation)) continue;
      const method = lower.toUpperCase();
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((p) => p.in === 'query');
      const pathParams = Object.fromEntries(
        parameters
          .filter((p) => p.in === 'path')
          .map((p) => [
            p.name,
            p.name === 'id' && path.includes('assignments') ? seeded.assignmentId : String(exampleOf(p.schema)),
          ]),
      );
      const baseQuery = Object.fromEntries(
        query
          .filter((p) => p.required || p.name === 'channel')
          .map((p) => [p.name, p.name === 'runtimeVersion' ? seeded.runtimeVersion : String(exampleOf(p.schema))]),
      );
      if (baseQuery.channel !== undefined) baseQuery.channel = 'production';
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const manifest = path === '/api/updates/manifest';
      operations.push({
        method,
        path,
        pathParams,
        query: query.map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
        baseQuery,
        // The manifest request is read from headers the document describes only in prose.
        headers: manifest
          ? [
              ['ota-platform', 'ios'],
              ['ota-runtime-version', seeded.runtimeVersion],
              ['ota-channel-name', 'production'],
              ['ota-current-update-id', UUID],
              ['ota-embedded-update-id', UUID],
              ['ota-protocol-version', '1'],
              ['accept', 'application/expo+json'],
            ]
          : [],
        body: schema ? { kind: 'json', schema, base: knownBody(method, path, seeded) ?? exampleOf(schema) } : undefined,
        auth: authOf(path, operation),
      });
    }
  }
  // /objects (the asset CDN and the local upload target), with a key of the shape assets have.
  const objectQuery = ['expires', 'signature', 'sha256', 'size'].map((name) => ({
    name,
    required: false,
    schema: { type: 'string' } as JsonSchema,
  }));
  const key = `updates/production/${seeded.runtimeVersion}/assets/${HASH}`;
  for (const method of ['GET', 'PUT']) {
    operations.push({
      method,
      path: '/objects/{key}',
      pathParams: { key },
      query: objectQuery,
      baseQuery: method === 'PUT' ? { expires: '9999999999', signature: 'x', sha256: HASH, size: '5' } : {},
      headers: [],
      body: method === 'PUT' ? { kind: 'bytes' } : undefined,
      auth: 'none',
    });
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// The battery

interface Case {
  label: string;
  request: RawRequest;
  /**
   * Where the request carries something no route may accept (a C0 control other than tab and line
   * breaks, a lone surrogate): a 2xx answer is a finding. Found in JSON bodies by reading them.
   */
  forbiddenAt: string[];
  /** Valid but strange input (an emoji, U+2028): the route may accept and store it. Nothing else may be stored. */
  mayStore: boolean;
}

const FORBIDDEN_TEXT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The places in a JSON body whose keys or string values carry forbidden text (none if it is not JSON). */
function forbiddenPaths(body: string | Buffer | undefined): string[] {
  if (body === undefined) return [];
  let root: unknown;
  try {
    root = JSON.parse(body.toString());
  } catch {
    return [];
  }
  const found: string[] = [];
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (FORBIDDEN_TEXT.test(value)) found.push(path.join('.'));
    } else if (typeof value === 'object' && value !== null && path.length < 64) {
      // Bounded: the battery nests bodies 100 000 deep, and copying paths would be quadratic.
      for (const [key, item] of Object.entries(value)) {
        if (FORBIDDEN_TEXT.test(key)) found.push([...path, '<key>'].join('.'));
        else pending.push({ value: item, path: [...path, Array.isArray(value) ? '0' : key] });
      }
    }
  }
  return found;
}

/** Strings every text field meets. `forbidden` ones must never be accepted anywhere. */
const HOSTILE_STRINGS: Array<{ name: string; value: string; forbidden: boolean }> = [
  { name: 'NUL inside', value: 'a\u0000b', forbidden: true },
  { name: 'NUL alone', value: '\u0000', forbidden: true },
  { name: 'SOH', value: 'a\u0001b', forbidden: true },
  { name: 'ESC sequence', value: 'a\u001b[31mb', forbidden: true },
  { name: 'US', value: 'a\u001fb', forbidden: true },
  { name: 'lone high surrogate', value: 'a\ud800b', forbidden: true },
  { name: 'lone low surrogate', value: '\udc00', forbidden: true },
  { name: '1000 NULs', value: '\u0000'.repeat(1000), forbidden: true },
  { name: '100 KB', value: 'a'.repeat(100_000), forbidden: false },
  { name: 'tab', value: 'a\tb', forbidden: false },
  { name: 'newline', value: 'a\nb', forbidden: false },
  { name: 'CRLF header injection', value: 'a\r\nX-Injected: 1', forbidden: false },
  { name: 'DEL', value: 'a\u007fb', forbidden: false },
  { name: 'empty', value: '', forbidden: false },
  { name: 'space', value: ' ', forbidden: false },
  { name: 'U+2028/2029', value: 'a\u2028b\u2029', forbidden: false },
  { name: 'RTL override', value: '\u202egnp.exe', forbidden: false },
  { name: 'BOM', value: '\ufeffx', forbidden: false },
  { name: 'emoji', value: '😀', forbidden: false },
  { name: 'path traversal', value: '../../../etc/passwd', forbidden: false },
  { name: 'percent NUL', value: '%00', forbidden: false },
  { name: 'SQL', value: "'; drop table releases; --", forbidden: false },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text itself is the attack (Log4Shell, template injection)
  { name: 'template', value: '${jndi:ldap://x}{{7*7}}', forbidden: false },
];

/** Values of the wrong type, kept only where the property's schema refuses them. */
const WRONG_VALUES: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, -1e308, '', 'x', '1', [], ['x'], {}, { a: 1 }];

/** JSON text no JSON.stringify produces: numbers out of every range, deep nesting. */
const RAW_LITERALS: Array<{ name: string; text: string }> = [
  { name: '1e999', text: '1e999' },
  { name: '-1e999', text: '-1e999' },
  { name: '30-digit integer', text: '123456789012345678901234567890' },
  { name: 'tiny float', text: '1e-400' },
  { name: '-0', text: '-0' },
  { name: 'arrays nested 10 000 deep', text: `${'['.repeat(10_000)}${']'.repeat(10_000)}` },
  { name: 'objects nested 10 000 deep', text: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` },
];

type Segment = string | number;

/** Every place in a body worth mutating: the base's own keys and the schema's, to a bounded depth. */
function fieldPaths(schema: JsonSchema | undefined, base: unknown, prefix: Segment[] = []): Segment[][] {
  if (prefix.length >= 4) return [];
  const paths: Segment[][] = [];
  if (Array.isArray(base)) {
    if (base.length > 0) {
      paths.push([...prefix, 0]);
      paths.push(...fieldPaths(schema?.items, base[0], [...prefix, 0]));
    }
    return paths;
  }
  if (typeof base !== 'object' || base === null) return paths;
  const keys = new Set([...Object.keys(schema?.properties ?? {}), ...Object.keys(base)]);
  for (const key of keys) {
    paths.push([...prefix, key]);
    paths.push(...fieldPaths(schema?.properties?.[key], (base as Record<string, unknown>)[key], [...prefix, key]));
  }
  return paths;
}

function schemaAt(schema: JsonSchema | undefined, path: Segment[]): JsonSchema | undefined {
  let at = schema;
  for (const segment of path) {
    if (!at) return undefined;
    if (at.anyOf) at = at.anyOf.find((s) => s.type === 'object' || s.type === 'array') ?? at.anyOf[0];
    at = typeof segment === 'number' ? at?.items : at?.properties?.[segment];
  }
  return at;
}

const REMOVE = Symbol('remove');
const RAW = (text: string) => ({ [RAW_MARK]: text });
const RAW_MARK = '__fuzz_raw__';

/** The base with one place replaced (or removed); raw JSON text is spliced in after stringifying. */
function mutate(base: unknown, path: Segment[], value: unknown): string {
  const raws: string[] = [];
  const replace = (node: unknown, depth: number): unknown => {
    if (depth === path.length) {
      if (value && typeof value === 'object' && RAW_MARK in value) {
        raws.push((value as Record<string, string>)[RAW_MARK]!);
        return `${RAW_MARK}${raws.length - 1}`;
      }
      return value;
    }
    const segment = path[depth]!;
    if (Array.isArray(node)) {
      const copy = [...node];
      const next = replace(copy[segment as number], depth + 1);
      if (next === REMOVE) copy.splice(segment as number, 1);
      else copy[segment as number] = next;
      return copy;
    }
    const copy = { ...(typeof node === 'object' && node !== null ? node : {}) } as Record<string, unknown>;
    const next = replace(copy[segment], depth + 1);
    if (next === REMOVE) delete copy[segment];
    else copy[segment] = next;
    return copy;
  };
  return JSON.stringify(replace(base, 0)).replace(
    new RegExp(`"${RAW_MARK}(\\d+)"`, 'g'),
    (_match, index) => raws[Number(index)]!,
  );
}

const pathName = (path: Segment[]) => path.join('.');

interface BuildInput {
  pathParams?: Record<string, string>;
  /** Already encoded query string (without `?`), or values to encode. */
  query?: string | Record<string, string>;
  /** Raw target override: exactly what goes on the request line. */
  target?: string;
  headers?: Array<[string, string]>;
  /** undefined: no body at all. */
  body?: string | Buffer;
  /** null: no content-type header. Default: JSON for a body. */
  contentType?: string | null;
  auth: boolean;
  authHeader?: string;
}

function buildRequest(op: Operation, credentials: Record<AuthKind, string | undefined>, input: BuildInput): RawRequest {
  const params = { ...op.pathParams, ...input.pathParams };
  const pathname = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name] ?? '';
    // /objects keys keep their slashes; other path parameters are one segment.
    return name === 'key' ? value.split('/').map(percentEncode).join('/') : percentEncode(value);
  });
  const query =
    typeof input.query === 'string'
      ? input.query
      : Object.entries(input.query ?? op.baseQuery)
          .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
          .join('&');
  const target = input.target ?? (query ? `${pathname}?${query}` : pathname);
  const headers: Array<[string, string]> = [...(input.headers ?? op.headers)];
  const authorization = input.authHeader ?? (input.auth ? credentials[op.auth] : undefined);
  if (authorization !== undefined) headers.push(['Authorization', authorization]);
  const contentType =
    input.contentType === undefined
      ? input.body === undefined
        ? null
        : op.body?.kind === 'bytes'
          ? 'application/octet-stream'
          : 'application/json'
      : input.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  return { method: op.method, target, headers, body: input.body };
}

/** A body JSON Schema refuses, for cases about something else (content type, credentials). */
function refusedBody(op: Operation): string {
  if (op.body?.kind !== 'json') return '{}';
  const { schema, base } = op.body;
  const required = schema.required?.[0];
  if (required) return mutate(base, [required], REMOVE);
  return JSON.stringify({ ...(base as object), zzUnknown: 1 });
}

function casesFor(op: Operation, credentials: Record<AuthKind, string | undefined>, random: Random): Case[] {
  const cases: Case[] = [];
  const protectedOp = op.auth !== 'none';
  /** Structural cases go out with and without credentials; per-field ones mostly with. */
  const add = (
    label: string,
    input: Omit<BuildInput, 'auth'>,
    options: { forbiddenAt?: string[]; mayStore?: boolean; everyAuth?: boolean } = {},
  ) => {
    const forbiddenAt = options.forbiddenAt ?? forbiddenPaths(input.body);
    const mayStore = options.mayStore ?? false;
    cases.push({ label, request: buildRequest(op, credentials, { ...input, auth: true }), forbiddenAt, mayStore });
    if (protectedOp && ((options.everyAuth ?? true) || random.next() < UNAUTHENTICATED_SHARE)) {
      cases.push({
        label: `${label} (no credentials)`,
        request: buildRequest(op, credentials, { ...input, auth: false }),
        forbiddenAt,
        mayStore,
      });
    }
  };
  const perField = { everyAuth: false };
  const jsonBody = op.body?.kind === 'json' ? op.body : undefined;

  // Bodies as a whole.
  if (op.body) {
    add('no body', {});
    add('empty body declared as JSON', { body: '', contentType: 'application/json' });
  }
  if (jsonBody) {
    const { schema, base } = jsonBody;
    const invalid = refusedBody(op);
    const baseJson = JSON.stringify(base);
    for (const text of ['null', '[]', JSON.stringify([base]), '"x"', '0', 'true', '1e999'])
      add(`body ${text.slice(0, 20)}`, { body: text });
    if (!conforms(schema, {})) add('body {}', { body: '{}' });
    for (const text of [
      '{',
      '{"a":1,}',
      "{'a':1}",
      '{"a":1}{"b":2}',
      '\u0000',
      'nul',
      baseJson.slice(0, Math.floor(baseJson.length / 2)),
    ]) {
      add(`invalid JSON ${JSON.stringify(text.slice(0, 20))}`, { body: text });
    }
    add('invalid UTF-8 in a string', {
      body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')]),
    });
    add('BOM before the body', { body: `\ufeff${invalid}` });
    add('__proto__ key', { body: `{"__proto__":{"polluted":true},${invalid.slice(1)}` });
    add('constructor.prototype key', { body: `{"constructor":{"prototype":{"polluted":true}},${invalid.slice(1)}` });
    add('duplicate keys', { body: `${invalid.slice(0, -1)},"zzUnknown":1,"zzUnknown":2}` });
    if (schema.additionalProperties === false)
      add('unknown property', { body: JSON.stringify({ ...(base as object), zzUnknown: 1 }) });
    add('arrays nested 100 000 deep', { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` });
    add('objects nested 100 000 deep', { body: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` });
    add('5 MB body', { body: `{"a":"${'x'.repeat(5 * 1024 * 1024)}"}` });
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16le',
      'application/json; charset=latin1',
      'application/jsonx',
      `application/json; x=${'a'.repeat(2000)}`,
      '',
    ]) {
      add(`content-type ${JSON.stringify(contentType.slice(0, 40))}`, { body: invalid, contentType });
    }
    add('Transfer-Encoding and Content-Length together', {
      body: invalid,
      headers: [...op.headers, ['Transfer-Encoding', 'chunked']],
    });

    // Every field: wrong types, hostile strings, raw literals, removal when required.
    for (const path of fieldPaths(schema, base)) {
      const fieldSchema = schemaAt(schema, path);
      const name = pathName(path);
      for (const value of WRONG_VALUES) {
        if (conforms(fieldSchema, value)) continue;
        add(`${name} = ${JSON.stringify(value)}`, { body: mutate(base, path, value) }, perField);
      }
      for (const hostile of HOSTILE_STRINGS) {
        add(
          `${name} = ${hostile.name}`,
          { body: mutate(base, path, hostile.value) },
          {
            ...perField,
            mayStore: !hostile.forbidden,
          },
        );
      }
      for (const literal of RAW_LITERALS) {
        add(
          `${name} = ${literal.name}`,
          { body: mutate(base, path, RAW(literal.text)) },
          {
            ...perField,
            mayStore: conformsAsText(fieldSchema, literal.text),
          },
        );
      }
      // A control character in a key, where the field is an object of free keys.
      add(`${name} with a NUL key`, { body: mutate(base, path, { 'a\u0000b': 'x' }) }, perField);
      const parent = schemaAt(schema, path.slice(0, -1));
      if (typeof path.at(-1) === 'string' && parent?.required?.includes(path.at(-1) as string)) {
        add(`${name} removed`, { body: mutate(base, path, REMOVE) }, perField);
      }
    }
  }
  if (op.body?.kind === 'bytes') {
    add('bytes body', { body: 'hello' });
    add('bytes body, JSON content type', { body: '{"a":1}', contentType: 'application/json' });
    add('bytes body, no content type', { body: 'hello', contentType: null });
  }

  // Query parameters.
  const queryValues = (name: string, value: string | undefined) => {
    const query = { ...op.baseQuery };
    if (value === undefined) delete query[name];
    else query[name] = value;
    return query;
  };
  for (const param of op.query) {
    if (param.required) add(`query ${param.name} missing`, { query: queryValues(param.name, undefined) });
    for (const hostile of HOSTILE_STRINGS) {
      add(
        `query ${param.name} = ${hostile.name}`,
        { query: queryValues(param.name, hostile.value) },
        { ...perField, forbiddenAt: hostile.forbidden ? [`query.${param.name}`] : [] },
      );
    }
    for (const value of ['abc', '-1', '0', '1.5', '1e999', '99999999999999999999', 'null', 'true', '[]', '{}']) {
      if (conforms(param.schema, value)) continue;
      add(`query ${param.name} = ${value}`, { query: queryValues(param.name, value) }, perField);
    }
    const base = new URLSearchParams(op.baseQuery);
    add(`query ${param.name} twice`, { query: `${base}&${param.name}=a&${param.name}=b` });
    add(`query ${param.name} as a bracket array`, { query: `${base}&${param.name}[]=a` });
    add(`query ${param.name} invalid percent-encoding`, { query: `${base}&${param.name}=%zz%ff%` });
  }
  if (op.query.length > 0) {
    add('unknown query parameter', { query: `${new URLSearchParams(op.baseQuery)}&zzUnknown=1` });
    add('100 KB query', { query: `${new URLSearchParams(op.baseQuery)}&zz=${'a'.repeat(100_000)}` });
  }

  // Path parameters.
  for (const name of Object.keys(op.pathParams)) {
    for (const hostile of HOSTILE_STRINGS) {
      add(
        `path ${name} = ${hostile.name}`,
        { pathParams: { [name]: hostile.value } },
        { ...perField, forbiddenAt: hostile.forbidden ? [`path.${name}`] : [] },
      );
    }
    for (const value of ['not-a-uuid', '..', '.', '%2e%2e', 'a/../../b', '0'.repeat(5000)]) {
      add(`path ${name} = ${value.slice(0, 20)}`, { pathParams: { [name]: value } }, perField);
    }
  }

  // Raw request lines the parser or the router must refuse.
  const basePath = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => op.pathParams[name] ?? '');
  add('raw NUL in the path', { target: `${basePath}\u0000` });
  add('raw space in the query', { target: `${basePath}?a=b c` });
  add('raw non-ASCII in the path', { target: `${basePath}/é` });
  add('invalid percent-encoding in the path', { target: `${basePath}/%E0%A4%A` });

  // Input headers (the manifest request).
  for (const [index, [header]] of op.headers.entries()) {
    const withHeader = (value: string | undefined): Array<[string, string]> =>
      op.headers.flatMap(
        ([name, base], at): Array<[string, string]> =>
          at !== index ? [[name, base]] : value === undefined ? [] : [[name, value]],
      );
    add(`header ${header} missing`, { headers: withHeader(undefined) });
    for (const hostile of HOSTILE_STRINGS) {
      if (hostile.name === '100 KB') continue; // one oversized header below is enough
      add(
        `header ${header} = ${hostile.name}`,
        { headers: withHeader(hostile.value) },
        { ...perField, forbiddenAt: hostile.forbidden ? [`header.${header}`] : [] },
      );
    }
    add(`header ${header} 8 KB`, { headers: withHeader('a'.repeat(8 * 1024)) });
    add(`header ${header} twice`, { headers: [...op.headers, [header, 'x']] });
  }
  add('headers of both namespaces, conflicting', {
    headers: [...op.headers, ['expo-platform', 'android'], ['expo-channel-name', 'development']],
  });
  add('32 KB of headers', { headers: [...op.headers, ['x-big', 'a'.repeat(32 * 1024)]] });

  // Credentials that are not quite right (with a body JSON Schema refuses, so nothing could be stored).
  if (protectedOp) {
    const body = op.body ? (jsonBody ? refusedBody(op) : 'hello') : undefined;
    const valid = credentials[op.auth] ?? '';
    for (const [label, authHeader] of [
      ['Bearer with NUL', `Bearer a\u0000b`],
      ['Bearer with SOH', `${valid}\u0001`],
      ['Bearer alone', 'Bearer'],
      ['Bearer and a space', 'Bearer '],
      ['Basic', 'Basic dXNlcjpwYXNz'],
      ['lower-case bearer', valid.replace(/^Bearer/, 'bearer')],
      ['10 KB token', `Bearer ${'a'.repeat(10_000)}`],
      ['token with a CR', `${valid}\rX: y`],
      ['non-ASCII token', 'Bearer tökén'],
      ['JWT with alg none', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
    ] as const) {
      cases.push({
        label: `authorization ${label}`,
        request: buildRequest(op, credentials, { body, auth: false, authHeader }),
        forbiddenAt: [],
        mayStore: false,
      });
    }
  }

  // Methods the path does not have.
  for (const method of ['DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'FOO']) {
    if (method === op.method) continue;
    cases.push({
      label: `method ${method}`,
      request: { ...buildRequest(op, credentials, { auth: true }), method },
      forbiddenAt: [],
      mayStore: false,
    });
  }

  // Seeded random combinations: two mutations at once, a random content type, credentials or not.
  if (jsonBody) {
    const paths = fieldPaths(jsonBody.schema, jsonBody.base);
    const values: Array<{ name: string; value: unknown }> = [
      ...HOSTILE_STRINGS.map((h) => ({ name: h.name, value: h.value })),
      ...WRONG_VALUES.map((value) => ({ name: JSON.stringify(value), value })),
      ...RAW_LITERALS.map((literal) => ({ name: literal.name, value: RAW(literal.text) })),
    ];
    for (let i = 0; i < RANDOM_CASES_PER_OPERATION && paths.length > 0; i++) {
      const first = random.pick(paths);
      const firstValue = random.pick(values);
      let body = mutate(jsonBody.base, first, firstValue.value);
      let label = `random #${i}: ${pathName(first)} = ${firstValue.name}`;
      // The second mutation goes on the first one's result (only where the result is still an object).
      const second = random.pick(paths);
      const secondValue = random.pick(values);
      try {
        const parsed = JSON.parse(body);
        if (!(secondValue.value && typeof secondValue.value === 'object' && RAW_MARK in secondValue.value)) {
          body = mutate(parsed, second, secondValue.value);
          label += `, ${pathName(second)} = ${secondValue.name}`;
        }
      } catch {
        // a raw literal the parser does not take back (1e999 parses, deep nesting does): keep one mutation
      }
      const contentType =
        random.next() < 0.9
          ? 'application/json'
          : random.pick(['text/plain', 'application/json; charset=utf-16le', '']);
      const auth = random.next() < 0.75;
      cases.push({
        label: `${label}${contentType === 'application/json' ? '' : ` as ${JSON.stringify(contentType)}`}${auth ? '' : ' (no credentials)'}`,
        request: buildRequest(op, credentials, { body, contentType, auth }),
        forbiddenAt: forbiddenPaths(body),
        // Two random mutations may well make a valid request.
        mayStore: true,
      });
    }
  } else {
    const hostileQueries = op.query.length > 0 ? op.query : [];
    for (let i = 0; i < RANDOM_CASES_PER_OPERATION && hostileQueries.length > 0; i++) {
      const param = random.pick(hostileQueries);
      const hostile = random.pick(HOSTILE_STRINGS);
      const auth = random.next() < 0.75;
      cases.push({
        label: `random #${i}: query ${param.name} = ${hostile.name}${auth ? '' : ' (no credentials)'}`,
        request: buildRequest(op, credentials, { query: queryValues(param.name, hostile.value), auth }),
        forbiddenAt: hostile.forbidden ? [`query.${param.name}`] : [],
        mayStore: false,
      });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Running it

interface Finding {
  operation: string;
  label: string;
  request: string;
  problem: string;
}

/**
 * Operations whose defects the battery reports without failing on them, while another area fixes
 * them: none now (the certificate area's text fields refuse control characters and lone surrogates
 * through the shared lineText; the rows below keep them refused).
 */
const KNOWN_ELSEWHERE: Record<string, string[]> = {};

/** HEAD for every GET, as Fastify exposes it. */
const withHeadRoutes = (operations: Operation[]): Operation[] =>
  operations.flatMap((op) => (op.method === 'GET' ? [op, { ...op, method: 'HEAD' }] : [op]));

async function seed(server: CertificateTestServer): Promise<Seeded> {
  const runtimeVersion = '1.0.0(1)';
  const payload = releasePayload({ runtimeVersion });
  await storeAssets(server, payload);
  const published = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  if (published.status !== 201) throw new Error(`seed release: ${published.status} ${await published.text()}`);
  const userId = `user-${randomUUID()}`;
  const assignmentId = await server.createAssignment(userId, 'VENDOR_A');
  const { token: adminToken } = await new OperatorTokenStore(server.app.database.db).create(
    { name: 'fuzz-admin', role: 'admin' },
    { actor: 'test' },
  );
  return { runtimeVersion, assignmentId, userId, adminToken };
}

interface BatteryResult {
  operations: string[];
  /** Operations with input that answered VALIDATION_FAILED at least once: the battery reached their schema. */
  validated: Set<string>;
  /** Operations whose input a schema validates (so they must show up in `validated`). */
  validating: string[];
  findings: Finding[];
  knownElsewhere: Finding[];
  requests: number;
  /** Valid-but-strange requests that were accepted and wrote something. */
  stored: string[];
  before: Counts;
  after: Counts;
  /** before plus what the accepted requests wrote, as counted right after each. */
  expectedAfter: Counts;
}

async function runBattery(server: CertificateTestServer, engine: EngineName): Promise<BatteryResult> {
  const seeded = await seed(server);
  const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as Parameters<typeof operationsOf>[0];
  const credentials: Record<AuthKind, string | undefined> = {
    release: `Bearer ${server.token}`,
    admin: `Bearer ${seeded.adminToken}`,
    user: `Bearer ${await server.tokenFor(seeded.userId)}`,
    operator: `Bearer ${TEST_OPERATOR_TOKEN}`,
    none: undefined,
  };
  const random = seededRandom(SEED);
  const findings: Finding[] = [];
  const knownElsewhere: Finding[] = [];
  const stored: string[] = [];
  const validated = new Set<string>();
  let requests = 0;
  const operations = withHeadRoutes(operationsOf(doc, seeded));
  // Every answer must also be one the document declares for its operation (status, type, body).
  const declared = new OpenApiAnswers(doc as unknown as OpenApiDocument);
  const before = await countRows(server);
  const expectedAfter = { ...before };
  let counts = before;
  for (const op of operations) {
    const operation = `${op.method} ${op.path}`;
    for (const { label, request, forbiddenAt, mayStore } of casesFor(op, credentials, random)) {
      requests++;
      const answer: RawResponse | string = await exchange(server.url, request);
      const finding = (problem: string): Finding => ({
        operation,
        label,
        request: describeRequest(request),
        problem: `[${engine}] ${problem}`,
      });
      const report = (problem: string) => findings.push(finding(problem));
      if (typeof answer === 'string') {
        report(answer);
        continue;
      }
      const undeclared = declared.check(
        request.method,
        request.target.split('?', 1)[0]!,
        answer.status,
        answer.headers['content-type'] ?? '',
        answer.body,
      );
      if (undeclared) report(`an answer the document does not declare: ${undeclared}`);
      if (answer.status >= 500) report(`answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`);
      else if (answer.status >= 400) {
        const problem = errorBodyProblem(answer, request.method);
        if (problem) report(`${answer.status} without the common error body: ${problem}`);
        else if (request.method !== 'HEAD' && answer.body.includes('"VALIDATION_FAILED"')) validated.add(operation);
      } else if (request.method === 'HEAD' && answer.body.length > 0) {
        report(`HEAD ${answer.status} carries ${answer.body.length} body bytes`);
      }
      if (forbiddenAt.length > 0 && answer.status < 300) {
        const problem = finding(
          `accepted (${answer.status}) a control character or lone surrogate in ${forbiddenAt.join(', ')}`,
        );
        const known = KNOWN_ELSEWHERE[operation];
        if (known && forbiddenAt.every((at) => known.includes(at))) knownElsewhere.push(problem);
        else findings.push(problem);
      }
      // Reading never writes: only requests that could write are followed by a count.
      if (request.method === 'GET' || request.method === 'HEAD') continue;
      const now = await countRows(server);
      if (!sameCounts(now, counts)) {
        const change = `${JSON.stringify(counts)} → ${JSON.stringify(now)}`;
        // The one refusal that is kept: a publish the native-change guard blocked is a `guard.blocked`
        // audit event (the console counts blocks per track), and nothing else.
        const guardBlock =
          answer.status === 409 &&
          answer.body.includes('"NATIVE_FINGERPRINT_CHANGED"') &&
          (Object.keys(now) as Array<keyof Counts>).every(
            (key) => now[key] === counts[key] + (key === 'audit_events' ? 1 : 0),
          );
        if (answer.status >= 300 && !guardBlock) report(`refused (${answer.status}) but changed ${change}`);
        else if (!mayStore && forbiddenAt.length === 0)
          report(`stored (${answer.status}) a request meant to be invalid: ${change}`);
        else stored.push(`${operation} ${label} → ${answer.status}`);
        for (const key of Object.keys(now) as Array<keyof Counts>) expectedAfter[key] += now[key] - counts[key];
      }
      counts = now;
    }
  }
  const validating = operations
    .filter((op) => op.method !== 'HEAD' && !op.path.startsWith('/objects/'))
    .filter(
      (op) =>
        op.body?.kind === 'json' ||
        op.query.length > 0 ||
        op.headers.length > 0 ||
        Object.keys(op.pathParams).length > 0,
    )
    .map((op) => `${op.method} ${op.path}`);
  return {
    operations: operations.map((op) => `${op.method} ${op.path}`),
    validated,
    validating,
    findings,
    knownElsewhere,
    requests,
    stored,
    before,
    after: await countRows(server),
    expectedAfter,
  };
}

const FUZZ_ENV = {
  RELEASE_RATE_LIMIT_PER_MINUTE: '1000000',
  BASELINE_RATE_LIMIT_PER_MINUTE: '1000000',
  CERT_RATE_LIMIT_PER_MINUTE: '1000000',
};

const formatFindings = (findings: Finding[]) =>
  findings.map((f) => `${f.operation} — ${f.label}: ${f.problem}\n    ${f.request}`).join('\n');

describeEachEngine('every operation of the OpenAPI document under hostile requests', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: FUZZ_ENV, logLevel: 'error' });
  });
  afterAll(async () => server?.close());

  it('answers every request below 500 with the common error body, and stores nothing it refuses', async () => {
    const started = Date.now();
    const result = await runBattery(server, engine);
    const report = formatFindings(result.findings);
    process.stdout.write(
      `[fuzz ${engine}] seed ${SEED}: ${result.requests} requests in ${Date.now() - started} ms; ` +
        `${result.findings.length} findings, ${result.knownElsewhere.length} known defects of the certificate area, ` +
        `${result.stored.length} valid-but-strange requests stored\n` +
        (report ? `${report}\n` : '') +
        (process.env.FUZZ_VERBOSE ? `${formatFindings(result.knownElsewhere)}\n${result.stored.join('\n')}\n` : ''),
    );
    expect(report).toBe('');
    // The battery covered the document and got past authentication to every schema.
    expect(result.operations).toEqual(
      expect.arrayContaining(['POST /api/updates/release', 'GET /v2/user/assignments/{id}', 'PUT /objects/{key}']),
    );
    expect(result.validating.filter((operation) => !result.validated.has(operation))).toEqual([]);
    // Nothing was written except by the requests counted as accepted, not even later.
    expect(result.after).toEqual(result.expectedAfter);
    expect(result.after.objects).toBe(result.before.objects);
  });
});

// ---------------------------------------------------------------------------------------------
// What the battery found, as explicit rows

interface Regression {
  name: string;
  /** What the request answered before the fix, per engine (documentation; the row asserts the fix). */
  before: string;
  request: (context: { server: CertificateTestServer; runtimeVersion: string }) => RawRequest;
  status: number;
  code: string;
  /** details.fields[].path the answer must name (VALIDATION_FAILED). */
  path?: string;
}

const json = (method: string, target: string, token: string | undefined, body: unknown): RawRequest => ({
  method,
  target,
  headers: [
    ['Content-Type', 'application/json'],
    ...(token ? ([['Authorization', `Bearer ${token}`]] as Array<[string, string]>) : []),
  ],
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const release =
  (overrides: Record<string, unknown>) => (context: { server: CertificateTestServer; runtimeVersion: string }) =>
    json('POST', '/api/updates/release', context.server.token, {
      ...releasePayload({ runtimeVersion: context.runtimeVersion }),
      ...overrides,
    });
const launchAsset = releasePayload().launchAsset;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const OTA_REGRESSIONS: Regression[] = [
  {
    name: 'NUL in metadata.commit',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ metadata: { commit: 'a\u0000b' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.metadata.commit',
  },
  {
    // On the development channel: production would answer 409 for any new fingerprint first.
    name: 'NUL in fingerprint',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ channel: 'development', fingerprint: 'fp\u0000' }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.fingerprint',
  },
  {
    name: 'NUL in an otaConfig value',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ otaConfig: { name: 'a\u0000b' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.otaConfig.name',
  },
  {
    name: 'NUL in an otaConfig key',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ otaConfig: { 'a\u0000b': 'x' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.otaConfig.a\\u0000b',
  },
  {
    name: 'NUL in launchAsset.key',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ launchAsset: { ...launchAsset, key: 'k\u0000' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.launchAsset.key',
  },
  {
    name: 'NUL in launchAsset.url (zod keeps it; only tab and line breaks are dropped)',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ launchAsset: { ...launchAsset, url: 'https://cdn.example.test/a\u0000.js' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.launchAsset.url',
  },
  {
    name: 'lone surrogate in metadata.actor',
    before: 'postgres 500, sqlite 201 (stored)',
    request: release({ metadata: { actor: 'a\ud800b' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.metadata.actor',
  },
  {
    name: 'lone surrogate in an otaConfig value',
    before: 'postgres 500, sqlite 201',
    request: release({ otaConfig: { scheme: '\udc00' } }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.otaConfig.scheme',
  },
  {
    name: 'lone surrogate in assets.0.contentType',
    before: 'postgres 500, sqlite 201',
    request: release({ assets: [{ ...launchAsset, contentType: 'text/\ud800' }] }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.assets.0.contentType',
  },
  {
    name: 'otaConfig nested 100 000 deep',
    before: '500 on both engines (JSON.stringify overflows the stack)',
    request: (context) =>
      json(
        'POST',
        '/api/updates/release',
        context.server.token,
        `${JSON.stringify(releasePayload({ runtimeVersion: context.runtimeVersion, otaConfig: undefined })).slice(0, -1)},"otaConfig":${deepObject(100_000)}}`,
      ),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'otaConfig nested 10 000 deep',
    before: '500 on both engines',
    request: (context) =>
      json(
        'POST',
        '/api/updates/release',
        context.server.token,
        `${JSON.stringify(releasePayload({ runtimeVersion: context.runtimeVersion, otaConfig: undefined })).slice(0, -1)},"otaConfig":${deepObject(10_000)}}`,
      ),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'otaConfig number 1e999 (parses to Infinity)',
    before: '201 on both engines, stored as null',
    request: (context) =>
      json(
        'POST',
        '/api/updates/release',
        context.server.token,
        `${JSON.stringify(releasePayload({ runtimeVersion: context.runtimeVersion, otaConfig: undefined })).slice(0, -1)},"otaConfig":{"name":1e999}}`,
      ),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.otaConfig.name',
  },
  {
    name: 'NUL in the rollback actor',
    before: 'postgres 500, sqlite 201 (stored in the record and the audit event)',
    request: (context) =>
      json('POST', '/api/updates/rollback', context.server.token, {
        channel: 'production',
        platform: 'ios',
        runtimeVersion: context.runtimeVersion,
        actor: 'a\u0000b',
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.actor',
  },
  {
    name: 'lone surrogate in the rollback runId',
    before: 'postgres 500, sqlite 201',
    request: (context) =>
      json('POST', '/api/updates/rollback', context.server.token, {
        channel: 'production',
        platform: 'ios',
        runtimeVersion: context.runtimeVersion,
        runId: '\ud800',
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.runId',
  },
  {
    name: 'a line break in an asset contentType (the pattern admits `\\s*` before parameters)',
    before: '200 on both engines, the line break passed on into the upload headers',
    request: (context) =>
      json('POST', '/api/updates/assets', context.server.token, {
        channel: 'production',
        runtimeVersion: context.runtimeVersion,
        assets: [{ hash: HASH, contentType: 'text/plain\r\n; charset=utf-8', size: 1 }],
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
    path: 'body.assets.0.contentType',
  },
];

/** Certificate-area defects (not fixed here): they still answer 2xx. The rows fail until someone fixes them. */
const CERTIFICATE_AREA_DEFECTS: Regression[] = [
  {
    name: 'POST /dev/sign-in signs a token for a userId with NUL',
    before: '200 on both engines, a token whose sub holds the NUL',
    request: () => json('POST', '/dev/sign-in', undefined, { userId: 'a\u0000b' }),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'POST /v2/operator/assignments stores a userId with a lone surrogate',
    before: '201 on both engines (stored)',
    request: () =>
      json('POST', '/v2/operator/assignments', TEST_OPERATOR_TOKEN, {
        userId: 'a\ud800b',
        certificateVendor: 'VENDOR_A',
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'POST /v2/operator/assignments stores a title with a lone surrogate',
    before: '201 on both engines (stored)',
    request: () =>
      json('POST', '/v2/operator/assignments', TEST_OPERATOR_TOKEN, {
        userId: 'u',
        certificateVendor: 'VENDOR_A',
        title: '\udc00',
      }),
    status: 400,
    code: 'VALIDATION_FAILED',
  },
];

/** Each answers 200 today and stores an authentication state (the certificate area refuses NUL there already). */
const CERTIFICATE_USER_DEFECTS: Array<{
  name: string;
  document: 'resident-certificate' | 'family-relations';
  field: string;
}> = [
  { name: 'sido with a lone surrogate', document: 'resident-certificate', field: 'sido' },
  { name: 'sigg with a lone surrogate', document: 'resident-certificate', field: 'sigg' },
  { name: 'preSignedUrl with a lone surrogate', document: 'resident-certificate', field: 'preSignedUrl' },
  { name: 'fthrNm with a lone surrogate', document: 'family-relations', field: 'fthrNm' },
];

async function expectAnswer(
  server: CertificateTestServer,
  request: RawRequest,
  row: Pick<Regression, 'status' | 'code' | 'path'>,
) {
  const before = await countRows(server);
  const answer = await exchange(server.url, request);
  if (typeof answer === 'string') throw new Error(answer);
  const body = JSON.parse(answer.body.toString('utf8'));
  expect({ status: answer.status, code: body.error?.code }).toEqual({ status: row.status, code: row.code });
  if (row.path) expect(body.error.details.fields.map((f: { path: string }) => f.path)).toContain(row.path);
  expect(errorBodyProblem(answer, request.method)).toBeUndefined();
  expect(await countRows(server)).toEqual(before);
}

describeEachEngine('defects the OpenAPI battery found', (engine) => {
  let server: CertificateTestServer;
  let runtimeVersion: string;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: FUZZ_ENV, logLevel: 'fatal' });
    // A track with two releases, so a rollback would go through if its input were accepted.
    runtimeVersion = '7.0.0(7)';
    for (const fingerprint of ['fp-a', 'fp-a']) {
      const payload = releasePayload({ runtimeVersion, fingerprint });
      await storeAssets(server, payload);
      const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
      if (response.status !== 201) throw new Error(`seed: ${response.status}`);
    }
  });
  afterAll(async () => server?.close());

  it.each(OTA_REGRESSIONS.map((row) => [`${row.name} (before: ${row.before})`, row] as const))(
    '%s → 400 and nothing stored',
    async (_name, row) => {
      await expectAnswer(server, row.request({ server, runtimeVersion }), row);
    },
  );

  it.each(CERTIFICATE_AREA_DEFECTS.map((row) => [`${row.name} (before: ${row.before})`, row] as const))(
    'certificate area: %s → 400 and nothing stored',
    async (_name, row) => {
      await expectAnswer(server, row.request({ server, runtimeVersion }), row);
    },
  );

  it.each(CERTIFICATE_USER_DEFECTS.map((row) => [row.name, row] as const))(
    'certificate area: POST /v2/user/certificate/* refuses %s (before: 200)',
    async (_name, row) => {
      const token = await server.tokenFor(`user-${randomUUID()}`);
      const body = { ...bodyFor(row.document), [row.field]: 'a\ud800b' };
      await expectAnswer(server, json('POST', `/v2/user/certificate/${row.document}`, token, body), {
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    },
  );
});
