export interface RetryPolicy {
  /** Attempts in all, including the first. */
  attempts: number;
  /** Delay before the second attempt; doubles each time, with jitter. */
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250 };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` until it succeeds, `isTransient` says an error is final, or attempts run out.
 * Only for idempotent work: asset checks and PUTs of content-addressed objects.
 */
export async function withRetries<T>(
  work: (attempt: number) => Promise<T>,
  isTransient: (error: unknown) => boolean,
  policy: RetryPolicy = DEFAULT_RETRY,
  onRetry?: (error: unknown, attempt: number) => void,
): Promise<T> {
  const sleep = policy.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !isTransient(error)) throw error;
      onRetry?.(error, attempt);
      const delay = policy.baseDelayMs * 2 ** (attempt - 1);
      await sleep(delay / 2 + Math.random() * (delay / 2));
    }
  }
}
