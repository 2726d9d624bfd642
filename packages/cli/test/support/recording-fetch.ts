export interface RecordedRequest {
  method: string;
  url: string;
  bodyBytes: number;
  status: number | 'network-error';
}

/**
 * fetch that records every request (method, URL, body size, outcome) and can fail chosen ones,
 * for asserting what the publisher sent and how it reacts to failures.
 */
export class RecordingFetch {
  readonly requests: RecordedRequest[] = [];
  /**
   * Decides per request whether to fail it: a status to answer with (or a status and the body to
   * send), 'network' to throw, or undefined to pass.
   */
  failWith: (request: {
    method: string;
    url: string;
    attempt: number;
  }) => number | { status: number; body: string } | 'network' | undefined = () => undefined;
  private readonly attempts = new Map<string, number>();

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body;
    const bodyBytes =
      body === undefined || body === null
        ? 0
        : typeof body === 'string'
          ? Buffer.byteLength(body)
          : body instanceof Uint8Array
            ? body.byteLength
            : 0;
    const key = `${method} ${url}`;
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const failure = this.failWith({ method, url, attempt });
    if (failure === 'network') {
      this.requests.push({ method, url, bodyBytes, status: 'network-error' });
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET (injected)') });
    }
    if (typeof failure === 'number') {
      this.requests.push({ method, url, bodyBytes, status: failure });
      return new Response(`injected ${failure}`, { status: failure });
    }
    if (failure !== undefined) {
      this.requests.push({ method, url, bodyBytes, status: failure.status });
      return new Response(failure.body, { status: failure.status });
    }
    const response = await fetch(input, init);
    this.requests.push({ method, url, bodyBytes, status: response.status });
    return response;
  };

  puts(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'PUT');
  }

  putBytes(): number {
    return this.puts()
      .filter((r) => r.status !== 'network-error' && r.status < 300)
      .reduce((total, r) => total + r.bodyBytes, 0);
  }

  reset(): void {
    this.requests.length = 0;
    this.attempts.clear();
  }
}

/** A stdout stand-in that keeps what was written. */
export class CapturedOutput {
  isTTY = false;
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}
