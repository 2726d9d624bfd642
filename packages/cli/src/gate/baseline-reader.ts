import { APP_HEADER, BaselineResponse, ErrorBody, type Platform } from '@ferry/contracts';
import { type RetryPolicy, withRetries } from '../http/retry.js';
import type { BaselineLookup } from './gate-verdict.js';

export interface BaselineReaderOptions {
  /** The Ferry server's base URL (--server or OTA_SERVER_URL). */
  serverUrl: string;
  /** The app whose baseline is read (the `ferry-app` header); undefined: the default app. */
  app?: string;
  fetch?: typeof fetch;
  /** Per attempt. */
  timeoutMs?: number;
  retry?: RetryPolicy;
}

/** A short retry: a blip should not turn a decidable gate into a warning, nor stall the pipeline. */
const GATE_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 300 };

class Transient extends Error {}

/**
 * Reads the production baseline of (platform, runtimeVersion) from GET
 * /api/updates/baseline-fingerprint, which needs no token (pull requests from forks have none).
 * Every outcome is a value, never an exception: the gate decides what each one means.
 */
export async function readProductionBaseline(
  options: BaselineReaderOptions,
  platform: Platform,
  runtimeVersion: string,
): Promise<BaselineLookup> {
  let url: URL;
  try {
    url = new URL(`${options.serverUrl.replace(/\/+$/, '')}/api/updates/baseline-fingerprint`);
  } catch {
    return { kind: 'failed', message: `the server URL ${JSON.stringify(options.serverUrl)} is not a URL` };
  }
  url.search = new URLSearchParams({ channel: 'production', platform, runtimeVersion }).toString();
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  try {
    return await withRetries(
      async () => {
        let response: Response;
        try {
          response = await fetchImpl(url, {
            headers: {
              accept: 'application/json',
              ...(options.app === undefined ? {} : { [APP_HEADER]: options.app }),
            },
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (error) {
          throw new Transient(`cannot reach ${url.origin}: ${describeCause(error)}`);
        }
        const lookup = interpret(response.status, await response.text(), runtimeVersion);
        if (response.status >= 500 || response.status === 429) throw new Transient(describe(lookup));
        return lookup;
      },
      (error) => error instanceof Transient,
      options.retry ?? GATE_RETRY,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.startsWith('cannot reach') ? { kind: 'unreachable', message } : { kind: 'failed', message };
  }
}

function describe(lookup: BaselineLookup): string {
  return 'message' in lookup ? lookup.message : lookup.kind;
}

function describeCause(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code;
  if (code) return code;
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function interpret(status: number, text: string, runtimeVersion: string): BaselineLookup {
  const json = parseJson(text);
  if (status === 200) {
    const parsed = BaselineResponse.safeParse(json);
    if (parsed.success) {
      return { kind: 'found', fingerprint: parsed.data.fingerprint, releaseId: parsed.data.releaseId };
    }
    return { kind: 'failed', message: 'the server answered 200 with a body that is not a baseline' };
  }
  const error = ErrorBody.safeParse(json);
  if (status === 404) {
    // The registry's own 404 echoes the track it looked for; anything else means the endpoint is missing.
    if (error.success && error.data.error.details.runtimeVersion === runtimeVersion) return { kind: 'no-release' };
    return {
      kind: 'endpoint-not-found',
      message: 'the baseline endpoint answered 404 without naming the track (is --server the Ferry server’s base URL?)',
    };
  }
  const detail = error.success ? `${error.data.error.code}: ${error.data.error.message}` : text.slice(0, 200);
  return { kind: 'failed', message: `the server answered ${status}${detail ? ` (${detail})` : ''}` };
}
