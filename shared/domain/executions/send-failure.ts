/**
 * How the executor reads a failed provider call. The Mailer port's contract: a refusal of this message is
 * answered as `rejected`; anything else is thrown, and the thrown error says whether the provider may have accepted
 * the e-mail. Judged from the error's shape (an HTTP status, a socket code), not its class, so an SDK's, an
 * emulator's or a fault injector's errors read the same.
 */

/**
 * Failures that happen before a request can have reached SES: nothing was sent, so sending again is safe. Node's
 * socket errors for a connection that never opened, and the SDK's own errors raised before any byte left.
 */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const NEVER_SENT_NAMES: ReadonlySet<string> = new Set(['CredentialsProviderError', 'TokenProviderError']);

/** SES's own words for the account's rolling 24-hour quota (its API answers it as a throttle, AWS documents). */
const DAILY_QUOTA_TEXT = /daily message quota|sending quota exceeded/i;
const THROTTLE_NAMES: ReadonlySet<string> = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling']);

/**
 * Whether SES refused a send for the account's limits (nothing sent), and which: `rate` — the maximum send rate
 * (`TooManyRequestsException`, HTTP 429), over in a second or two; `daily_quota` — the 24-hour quota
 * (`LimitExceededException`, or a throttle saying "Daily message quota exceeded"), over only as the rolling window
 * moves, so it must not be hammered. Undefined for any other failure.
 */
export function sendThrottleOf(error: unknown): 'rate' | 'daily_quota' | undefined {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
  if (
    error.name === 'LimitExceededException' ||
    ((THROTTLE_NAMES.has(error.name) || status === 429) && DAILY_QUOTA_TEXT.test(error.message))
  ) {
    return 'daily_quota';
  }
  return THROTTLE_NAMES.has(error.name) || status === 429 ? 'rate' : undefined;
}

/**
 * Whether SES refused a send because sending is paused (`SendingPausedException`, HTTP 400; nothing was sent). On a
 * send that names the client's tenant it is read as the tenant's pause (SES's reputation policy pauses one client,
 * not the account): the executor defers, it does not fail. SES documents the error for a paused account; a paused
 * account and a paused tenant read the same, and the sender asks SES for the tenant's status before it sends again.
 */
export function isTenantPausedError(error: unknown): boolean {
  return error instanceof Error && error.name === 'SendingPausedException';
}

/**
 * Whether a SendEmail failure leaves the outcome unknown: SES may have accepted the e-mail — a connection
 * reset or a timeout after the request left, or a 5xx (the service failed somewhere after receiving it). Such a send
 * is decided from evidence (SES's status notifications) before any re-send. A 4xx answer (throttling, a quota, a paused
 * account) is SES saying no: nothing was sent and the queue may retry at once.
 */
export function isAmbiguousSendError(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return false;
  if (NEVER_SENT_NAMES.has(error.name)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
  if (typeof status === 'number') return status >= 500;
  // No HTTP answer at all: the request may have reached SES (reset, timeout, socket hang up).
  return true;
}
