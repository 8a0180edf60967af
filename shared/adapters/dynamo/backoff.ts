import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Retries with capped exponential backoff and full jitter. The SDK already retries a throttled call a few times;
 * this is the outer loop for what it does not retry: `UnprocessedKeys`, transactions cancelled only by throttling
 * or by another in-flight transaction, and throttling that outlasted the SDK's own attempts.
 */
export interface BackoffOptions {
  /** Total attempts, the first included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { attempts: 8, baseMs: 25, maxMs: 1_000 };

/** Delay before retry number `retry` (1 = the first retry). */
export function backoffDelay(retry: number, options: BackoffOptions): number {
  return Math.random() * Math.min(options.maxMs, options.baseMs * 2 ** retry);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
]);
const TRANSIENT_CANCELLATIONS = new Set(['ThrottlingError', 'TransactionConflict', 'ProvisionedThroughputExceeded']);

/**
 * True for an error worth sending the same request again: throttling, a transient service error, or a
 * transaction cancelled only by throttling/conflicts (never by a failed condition, which is final).
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof TransactionCanceledException) {
    const codes = (error.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
    return (
      codes.some((c) => TRANSIENT_CANCELLATIONS.has(c)) &&
      codes.every((c) => c === 'None' || TRANSIENT_CANCELLATIONS.has(c))
    );
  }
  return error instanceof Error && THROTTLING_ERRORS.has(error.name);
}

/** Network-level failures: the request may or may not have reached the table; sending it again is safe with a token. */
const TIMEOUT_ERRORS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'NetworkingError']);
const TIMEOUT_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN']);

/**
 * True when an error that outlasted our retries may still go away: throttling and transient service errors
 * (isTransient), timeouts and dropped connections, or an SDK error the SDK itself calls retryable. False for a
 * request refused as it is (ValidationException, a value the document client cannot marshal): sending it again
 * fails again, so a caller must never be told to.
 */
export function isRetryable(error: unknown): boolean {
  if (isTransient(error)) return true;
  if (!(error instanceof Error)) return false;
  const details = error as Error & { code?: unknown; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  if (TIMEOUT_ERRORS.has(error.name) || (typeof details.code === 'string' && TIMEOUT_CODES.has(details.code)))
    return true;
  if (details.$retryable) return true;
  const status = details.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

/** Runs `fn` until it succeeds, a non-transient error occurs, or the attempts are used up (the last error is thrown). */
export async function retryTransient<T>(fn: () => Promise<T>, options: BackoffOptions = DEFAULT_BACKOFF): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      if (!isTransient(error) || attempt >= options.attempts) throw error;
      await sleep(backoffDelay(attempt, options));
    }
  }
}
