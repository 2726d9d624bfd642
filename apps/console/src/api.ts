import { APP_HEADER, CONSOLE_CSRF_HEADER } from '@ferry/contracts';
import { appInView } from './app-in-view.js';

/** Dispatched on window when an API call answers 401. */
export const SESSION_ENDED = 'ferry-console:session-ended';

/** A refusal from the server, with its common error body's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error body's details (a group action's refusal names its `platform` there). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The server's own words when it sent the common error body; none (empty) when it did not. */
async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as {
      error?: { code?: string; message?: string; details?: Record<string, unknown> };
    };
    return new ApiError(
      response.status,
      body.error?.code ?? 'HTTP_ERROR',
      body.error?.message ?? '',
      body.error?.details ?? {},
    );
  } catch {
    return new ApiError(response.status, 'HTTP_ERROR', '');
  }
}

export interface ApiRequest {
  method?: string;
  body?: unknown;
  /** The app the request acts on: the app in view when left out; none (the server picks) when null. */
  app?: string | null;
}

/**
 * Every request carries the session cookie (same origin) and the console header, which the server
 * requires on cookie-authenticated changes: a page on another site can send the cookie but not the header.
 * It names the app in view (`ferry-app`): the server reads and changes only that app's tracks.
 */
export async function request(path: string, init: ApiRequest = {}): Promise<Response> {
  const headers: Record<string, string> = { [CONSOLE_CSRF_HEADER]: '1', accept: 'application/json' };
  const app = init.app === undefined ? appInView() : init.app;
  if (app !== undefined && app !== null) headers[APP_HEADER] = app;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) {
    // The session ended (signed out elsewhere, expired, token revoked): the app shows the sign-in page.
    if (response.status === 401 && path !== '/api/console/session') window.dispatchEvent(new Event(SESSION_ENDED));
    throw await failure(response);
  }
  return response;
}

/** A JSON answer, checked against its contract so the pages never render a shape they do not expect. */
export async function getJson<T>(
  path: string,
  schema: { parse(value: unknown): T },
  init: Pick<ApiRequest, 'app'> = {},
): Promise<T> {
  const response = await request(path, init);
  return schema.parse(await response.json());
}

export async function send(path: string, method: 'POST' | 'DELETE', body?: unknown): Promise<unknown> {
  const response = await request(path, { method, body });
  return response.status === 204 ? undefined : response.json();
}
