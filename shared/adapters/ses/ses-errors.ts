/**
 * Which SendEmail errors end one message for good. The question for each: would the same request for this one
 * message fail again however long the queue waits, while other messages still go out?
 *
 * | SES error                          | outcome  | why                                                              |
 * |------------------------------------|----------|------------------------------------------------------------------|
 * | MessageRejected                    | rejected | this message's content or recipient is refused (e.g. unverified  |
 * |                                    |          | address in the sandbox, a virus); resending it cannot help       |
 * | BadRequestException                | rejected | this request is invalid (an address, a header); same input, same |
 * |                                    |          | answer                                                           |
 * | MailFromDomainNotVerifiedException | rejected | the From identity (the client's sender setting) is not usable;   |
 * |                                    |          | the client fixes it, then retries the failed execution           |
 * | AccountSuspendedException          | thrown   | account-wide, not this message's fault: failing every execution  |
 * |                                    |          | would need one retry each; the DLQ alarm tells the operator, and |
 * |                                    |          | the messages are redriven once the account is restored           |
 * | SendingPausedException             | thrown   | sending paused (reputation): on a send naming the client's SES   |
 * |                                    |          | tenant, the tenant's pause — the executor gives the claim back,  |
 * |                                    |          | defers the execution and records the pause on the client's       |
 * |                                    |          | sender state (send-failure.ts isTenantPausedError); without a    |
 * |                                    |          | tenant, the account's or configuration set's: same as above      |
 * | NotFoundException                  | thrown   | the configuration set is missing: a deployment fault, same as    |
 * |                                    |          | above                                                            |
 * | TooManyRequestsException           | thrown   | sending rate exceeded: the executor defers the execution with a  |
 * |                                    |          | jittered backoff (send-failure.ts sendThrottleOf), no redelivery |
 * | LimitExceededException             | thrown   | the daily sending quota: deferred 10–15 minutes the same way     |
 * | InternalServiceErrorException, any | thrown   | transient, or unknown: retried, and a message that never passes  |
 * | 5xx, network error, anything else  |          | ends in the DLQ rather than as a wrong "failed"                  |
 *
 * Errors are matched by name, not class, so an emulator's or a second SDK copy's errors map the same way.
 */
export const PERMANENT_SEND_ERRORS: ReadonlySet<string> = new Set([
  'MessageRejected',
  'BadRequestException',
  'MailFromDomainNotVerifiedException',
]);

/** The reason recorded on a failed execution for a permanent error, or undefined when the error must be thrown. */
export function permanentRejection(error: unknown): string | undefined {
  if (!(error instanceof Error) || !PERMANENT_SEND_ERRORS.has(error.name)) return undefined;
  return error.message ? `${error.name}: ${error.message}` : error.name;
}
