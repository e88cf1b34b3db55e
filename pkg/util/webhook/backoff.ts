// Retrying transient webhook failures the way upstream's authentication webhook does
// (DefaultAuthWebhookRetryBackoff, wait.ExponentialBackoffWithContext): up to `steps` attempts,
// sleeping 500ms, then 1.5 times longer each time, each sleep stretched by up to 20% at random;
// only failures the policy calls transient are retried, and the last failure is what the caller
// sees. A deadline bounds the whole, as upstream's shared 30s lookup context does.

export interface RetryBackoff {
  /** First delay; upstream 500ms. */
  initialDelayMs: number;
  /** Growth of the delay per retry; upstream 1.5. */
  factor: number;
  /** Each delay is lengthened by up to this fraction at random; upstream 0.2. */
  jitter: number;
  /** Attempts in all (not retries); upstream 5. Must be at least 1. */
  steps: number;
}

export const defaultRetryBackoff: Readonly<RetryBackoff> = { initialDelayMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

export function validateRetryBackoff(b: RetryBackoff): void {
  if (!(b.steps > 0)) throw new Error(`number of webhook retry attempts must be greater than 0, but is: ${b.steps}`);
}

/**
 * Calls `attempt` until it succeeds, fails with an error `shouldRetry` refuses, the attempts run
 * out, or `deadline` (Date.now() milliseconds) passes; rejects with the last error.
 */
export async function withExponentialBackoff<T>(b: RetryBackoff, deadline: number, attempt: () => Promise<T>, shouldRetry: (e: unknown) => boolean): Promise<T> {
  let delay = b.initialDelayMs;
  let lastErr: unknown = new Error('webhook call failed: context deadline exceeded');
  for (let step = b.steps; step > 0; step--) {
    if (Date.now() >= deadline) break;
    try {
      return await attempt();
    } catch (e) {
      lastErr = e;
      if (!shouldRetry(e)) throw e;
    }
    if (step === 1) break;
    const wait = delay + (b.jitter > 0 ? Math.random() * b.jitter * delay : 0);
    delay *= b.factor || 1;
    if (Date.now() + wait >= deadline) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  throw lastErr;
}
