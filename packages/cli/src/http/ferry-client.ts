import {
  APP_HEADER,
  type AssetGcRequestInput,
  AssetGcResponse,
  type AssetUploadCheckRequest,
  AssetUploadCheckResponse,
  type AssetVerifyRequestInput,
  AssetVerifyResponse,
  AuditEvent,
  AuditEventPage,
  CodeSigningResponse,
  DEFAULT_APP,
  DirectiveCreatedResponse,
  type DirectiveRequest,
  type EmbeddedBundleQuery,
  EmbeddedBundleResponse,
  ErrorBody,
  FerryHttpError,
  type GroupRolloutChange,
  GroupRolloutResponse,
  NDJSON_MEDIA_TYPE,
  type PromoteRequestInput,
  PromoteResponse,
  ReleaseCreatedResponse,
  type ReleaseListQueryInput,
  ReleaseListResponse,
  type ReleasePayloadInput,
  type ReleaseSummary,
  type RollbackRequest,
  RollbackResponse,
  type RolloutChange,
  RolloutResponse,
} from '@ferry/contracts';
import type { z } from 'zod';
import { appRefusalMessage } from '../apps/app-refusal.js';
import { DEFAULT_RETRY, type RetryPolicy, withRetries } from './retry.js';

export interface FerryClientOptions {
  serverUrl: string;
  /** The release token (OTA_RELEASE_TOKEN). Sent as a bearer token, never printed; '' sends none. */
  token: string;
  /**
   * The app the requests act on, sent as the `ferry-app` header (app-choice.ts); undefined sends
   * none, and the server acts on the token's own app.
   */
  app?: string;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
}

/** Where an app's code-signing identity is asked for; the default app keeps the path from before apps. */
export const codeSigningPath = (app: string | undefined): string =>
  app === undefined || app === DEFAULT_APP ? '/api/updates/code-signing' : `/api/apps/${app}/code-signing`;

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as these bytes, with this content type (instead of `body`). */
  raw?: { bytes: Uint8Array<ArrayBuffer>; contentType: string };
  schema: S;
  /** Only idempotent calls are retried: a lost response to a POST /release must not publish twice. */
  idempotent: boolean;
}

const describeCause = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause ?? (error instanceof Error ? error.message : String(error));
};

/** A small typed client of the Ferry release endpoints; every response is checked with its contract schema. */
export class FerryClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  constructor(private readonly options: FerryClientOptions) {
    this.base = options.serverUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Which of these assets the server still needs, with upload URLs for the missing ones. */
  checkAssets(request: AssetUploadCheckRequest): Promise<AssetUploadCheckResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/assets',
      body: request,
      schema: AssetUploadCheckResponse,
      idempotent: true,
    });
  }

  async publishRelease(payload: ReleasePayloadInput): Promise<ReleaseSummary> {
    const body = await this.call({
      method: 'POST',
      path: '/api/updates/release',
      body: payload,
      schema: ReleaseCreatedResponse,
      idempotent: false,
    });
    return body.release;
  }

  /** One page of releases, newest first; pass `nextCursor` back as `cursor` for the next. */
  listReleases(query: ReleaseListQueryInput): Promise<ReleaseListResponse> {
    return this.call({
      method: 'GET',
      path: `/api/updates/releases?${searchParams(query)}`,
      schema: ReleaseListResponse,
      idempotent: true,
    });
  }

  /**
   * GET /api/audit-events: hands each event to `onEvent` as its line arrives (the answer is
   * streamed). A transient failure, before or during the answer, is retried from after the last
   * event delivered, so none is delivered twice. Returns how many were delivered and the last seq.
   */
  async auditEvents(
    query: AuditQuery,
    onEvent: (event: AuditEvent) => void | Promise<void>,
  ): Promise<{ delivered: number; lastSeq?: number }> {
    let delivered = 0;
    let lastSeq: number | undefined;
    const once = async () => {
      const remaining = query.limit === undefined ? undefined : query.limit - delivered;
      const after = lastSeq ?? query.after;
      const path = `/api/audit-events?${searchParams({
        ...query,
        type: query.type?.join(','),
        after,
        limit: remaining,
      })}`;
      const response = await this.fetchOrThrow(path, { method: 'GET', accept: NDJSON_MEDIA_TYPE });
      if (!response.ok) throw await httpError(response, 'GET', path);
      for await (const line of ndjsonLines(response, this.base)) {
        const parsed = AuditEvent.safeParse(parseJsonLine(line));
        if (!parsed.success) throw unexpectedResponse('GET', path, response.status);
        await onEvent(parsed.data);
        delivered++;
        lastSeq = parsed.data.seq;
      }
    };
    await withRetries(once, isTransient, this.options.retry ?? DEFAULT_RETRY);
    return { delivered, lastSeq };
  }

  /**
   * One page of the audit log newest first (order=newest); pass `nextCursor` back as `cursor` for
   * the next, older page. A read: retried like one.
   */
  auditPage(query: Omit<AuditQuery, 'after'> & { cursor?: string }): Promise<AuditEventPage> {
    return this.call({
      method: 'GET',
      path: `/api/audit-events?${searchParams({ ...query, order: 'newest', type: query.type?.join(',') })}`,
      schema: AuditEventPage,
      idempotent: true,
    });
  }

  /** Where codeSigning() asks: the app's own code-signing endpoint. */
  get codeSigningPath(): string {
    return codeSigningPath(this.options.app);
  }

  /** The app's code-signing identity and its signature over `nonce` (public; no token needed). */
  codeSigning(nonce: string): Promise<CodeSigningResponse> {
    return this.call({
      method: 'GET',
      path: `${this.codeSigningPath}?${searchParams({ nonce })}`,
      schema: CodeSigningResponse,
      idempotent: true,
    });
  }

  /** POST /api/updates/gc. A dry run is retried like any read; a run that deletes is sent once. */
  collectGarbage(request: AssetGcRequestInput): Promise<AssetGcResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/gc',
      body: request,
      schema: AssetGcResponse,
      idempotent: request.dryRun !== false,
    });
  }

  verifyAssets(request: AssetVerifyRequestInput): Promise<AssetVerifyResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/gc/verify',
      body: request,
      schema: AssetVerifyResponse,
      idempotent: true,
    });
  }

  /**
   * PUT /api/updates/embedded: registers a build's embedded update with its launch bundle as the
   * body. `created` is false when the server already had it (200): registering again changes
   * nothing, so the call is retried like a read. A retry after a lost 201 answer reads as 200.
   */
  async registerEmbedded(
    query: EmbeddedBundleQuery,
    bundle: Uint8Array<ArrayBuffer>,
  ): Promise<{ created: boolean; registered: EmbeddedBundleResponse }> {
    const { status, body } = await this.callWithStatus({
      method: 'PUT',
      path: `/api/updates/embedded?${searchParams(query)}`,
      raw: { bytes: bundle, contentType: 'application/octet-stream' },
      schema: EmbeddedBundleResponse,
      idempotent: true,
    });
    return { created: status === 201, registered: body };
  }

  rollback(request: RollbackRequest): Promise<RollbackResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/rollback',
      body: request,
      schema: RollbackResponse,
      idempotent: false,
    });
  }

  /** POST /api/updates/directives: the track's devices go back to their embedded bundle. Sent once. */
  rollBackToEmbedded(request: DirectiveRequest): Promise<DirectiveCreatedResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/directives',
      body: request,
      schema: DirectiveCreatedResponse,
      idempotent: false,
    });
  }

  /** A release's rollout: share, state and device health. */
  rollout(releaseId: string): Promise<RolloutResponse> {
    return this.call({
      method: 'GET',
      path: `/api/updates/rollouts/${encodeURIComponent(releaseId)}`,
      schema: RolloutResponse,
      idempotent: true,
    });
  }

  /** Changes the rollout of every release of a group at once. Sent once, as changeRollout. */
  changeGroupRollout(change: GroupRolloutChange): Promise<GroupRolloutResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/rollouts',
      body: change,
      schema: GroupRolloutResponse,
      idempotent: false,
    });
  }

  /** POST /api/updates/promote: a release or a group republished to another channel. Sent once. */
  promote(request: PromoteRequestInput): Promise<PromoteResponse> {
    return this.call({
      method: 'POST',
      path: '/api/updates/promote',
      body: request,
      schema: PromoteResponse,
      idempotent: false,
    });
  }

  /** Changes a rollout. Sent once: a revert publishes again, and must not do so twice. */
  changeRollout(releaseId: string, change: RolloutChange): Promise<RolloutResponse> {
    return this.call({
      method: 'POST',
      path: `/api/updates/rollouts/${encodeURIComponent(releaseId)}`,
      body: change,
      schema: RolloutResponse,
      idempotent: false,
    });
  }

  private async call<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    return (await this.callWithStatus(call)).body;
  }

  /** The checked answer and its status, for endpoints whose 200 and 201 mean different things. */
  private async callWithStatus<S extends z.ZodType>(call: Call<S>): Promise<{ status: number; body: z.infer<S> }> {
    const once = () => this.send(call);
    if (!call.idempotent) return once();
    return withRetries(once, isTransient, this.options.retry ?? DEFAULT_RETRY);
  }

  private async fetchOrThrow(
    path: string,
    request: Pick<Call<z.ZodType>, 'method' | 'body' | 'raw'> & { accept?: string },
  ): Promise<Response> {
    const headers: Record<string, string> = {
      // No token (an empty one): the public endpoints only.
      ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
      // Every request names the app when one is known: the one place the header is set.
      ...(this.options.app === undefined ? {} : { [APP_HEADER]: this.options.app }),
      accept: request.accept ?? 'application/json',
    };
    if (request.raw) headers['content-type'] = request.raw.contentType;
    else if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetchImpl(`${this.base}${path}`, {
        method: request.method,
        headers,
        body: request.raw ? request.raw.bytes : request.body === undefined ? undefined : JSON.stringify(request.body),
      });
    } catch (error) {
      throw new FerryHttpError(0, 'NETWORK', `Cannot reach ${this.base}: ${describeCause(error)}`);
    }
  }

  private async send<S extends z.ZodType>(call: Call<S>): Promise<{ status: number; body: z.infer<S> }> {
    const response = await this.fetchOrThrow(call.path, call);
    if (!response.ok) throw await httpError(response, call.method, call.path);
    const parsed = call.schema.safeParse(parseJsonLine(await response.text()));
    if (!parsed.success) throw unexpectedResponse(call.method, call.path, response.status);
    return { status: response.status, body: parsed.data };
  }
}

/** The audit export's query as the CLI builds it; the server validates every field. */
export interface AuditQuery {
  since?: string;
  /** The end of the time range (exclusive; a date alone: the end of that day). */
  to?: string;
  actor?: string;
  after?: number;
  type?: string[];
  channel?: string;
  platform?: string;
  runtimeVersion?: string;
  releaseId?: string;
  limit?: number;
}

const isTransient = (error: unknown) => error instanceof FerryHttpError && error.transient;

const searchParams = (query: object): URLSearchParams =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );

function parseJsonLine(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The error an answer that is not 2xx stands for: the common error body when it is one. */
async function httpError(response: Response, method: string, path: string): Promise<FerryHttpError> {
  const text = await response.text().catch(() => '');
  const error = ErrorBody.safeParse(parseJsonLine(text));
  if (error.success) {
    const { code, message, details } = error.data.error;
    const text = appRefusalMessage(code, message, details) ?? withFields(message, details);
    return new FerryHttpError(response.status, code, text, details);
  }
  const snippet = text.slice(0, 200).replace(/\s+/g, ' ');
  return new FerryHttpError(
    response.status,
    'HTTP_ERROR',
    `${method} ${path.split('?')[0]} answered ${response.status}${snippet ? `: ${snippet}` : ''}`,
  );
}

/** A validation refusal names its fields in `details.fields`; people see them in the message. */
function withFields(message: string, details: Record<string, unknown>): string {
  const fields = Array.isArray(details.fields) ? (details.fields as Array<{ path?: unknown; message?: unknown }>) : [];
  const named = fields
    .filter((field) => typeof field.path === 'string' && typeof field.message === 'string')
    .slice(0, 5)
    .map((field) => `${field.path}: ${field.message}`);
  return named.length === 0 ? message : `${message} ${named.join('; ')}`;
}

const unexpectedResponse = (method: string, path: string, status: number) =>
  new FerryHttpError(
    status,
    'UNEXPECTED_RESPONSE',
    `${method} ${path.split('?')[0]} answered ${status} with a body Ferry does not understand ` +
      '(is --server pointing at a Ferry server of the same version?)',
  );

/**
 * The lines of an NDJSON answer as they arrive. An answer cut off mid-line (the connection
 * dropped) is a network failure, so the caller may ask again for the rest.
 */
async function* ndjsonLines(response: Response, base: string): AsyncIterable<string> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw new FerryHttpError(0, 'NETWORK', `The answer from ${base} was cut off: ${describeCause(error)}`);
      }
      if (chunk.done) break;
      pending += decoder.decode(chunk.value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line !== '') yield line;
    }
  } finally {
    // A consumer that stops early (an error in onEvent) lets the connection go.
    reader.cancel().catch(() => {});
  }
  pending += decoder.decode();
  if (pending !== '') {
    throw new FerryHttpError(0, 'NETWORK', `The answer from ${base} was cut off in the middle of a line`);
  }
}
