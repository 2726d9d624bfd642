import {
  type AssetUploadCheckRequest,
  AssetUploadCheckResponse,
  ErrorBody,
  FerryHttpError,
  ReleaseCreatedResponse,
  type ReleaseListItem,
  type ReleaseListQueryInput,
  ReleaseListResponse,
  type ReleasePayloadInput,
  type ReleaseSummary,
  type RollbackRequest,
  RollbackResponse,
} from '@ferry/contracts';
import type { z } from 'zod';
import { DEFAULT_RETRY, type RetryPolicy, withRetries } from './retry.js';

export interface FerryClientOptions {
  serverUrl: string;
  /** The release token (OTA_RELEASE_TOKEN). Sent as a bearer token, never printed. */
  token: string;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
}

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
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

  async listReleases(query: ReleaseListQueryInput): Promise<ReleaseListItem[]> {
    const params = new URLSearchParams(
      Object.entries(query)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, String(value)]),
    );
    const body = await this.call({
      method: 'GET',
      path: `/api/updates/releases?${params}`,
      schema: ReleaseListResponse,
      idempotent: true,
    });
    return body.releases;
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

  private async call<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    const once = () => this.send(call);
    if (!call.idempotent) return once();
    return withRetries(
      once,
      (error) => error instanceof FerryHttpError && error.transient,
      this.options.retry ?? DEFAULT_RETRY,
    );
  }

  private async send<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    const url = `${this.base}${call.path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: 'application/json',
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
    } catch (error) {
      throw new FerryHttpError(0, 'NETWORK', `Cannot reach ${this.base}: ${describeCause(error)}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const error = ErrorBody.safeParse(json);
      if (error.success) {
        const { code, message, details } = error.data.error;
        throw new FerryHttpError(response.status, code, message, details);
      }
      const snippet = text.slice(0, 200).replace(/\s+/g, ' ');
      throw new FerryHttpError(
        response.status,
        'HTTP_ERROR',
        `${call.method} ${call.path.split('?')[0]} answered ${response.status}${snippet ? `: ${snippet}` : ''}`,
      );
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      throw new FerryHttpError(
        response.status,
        'UNEXPECTED_RESPONSE',
        `${call.method} ${call.path.split('?')[0]} answered ${response.status} with a body Ferry does not understand ` +
          '(is --server pointing at a Ferry server of the same version?)',
      );
    }
    return parsed.data;
  }
}
