import { InternalServiceErrorException, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { RequestThrottled, SQSServiceException } from '@aws-sdk/client-sqs';

/**
 * The errors an injected fault throws, shaped as the SDK throws the real ones, so the code under test classifies
 * them as it would in production (ses-errors.ts matches by name; the SDK's retry reads `code`, `name`, `$metadata`).
 * Service errors are the SDK's own exception classes; network errors are what Node's http client throws, without
 * `$metadata` (no HTTP response was read). Messages say "injected" where the real text allows.
 */

/** The socket closed before the response was read (Node: `socket hang up`, ECONNRESET). */
export function connectionReset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** The SDK's request timeout (@smithy/node-http-handler names it TimeoutError). */
export function requestTimeout(): Error {
  return Object.assign(new Error('the request socket timed out (injected fault)'), { name: 'TimeoutError' });
}

const metadata = (httpStatusCode: number) => ({ httpStatusCode, attempts: 1, totalRetryDelay: 0 });

/** SES SendEmail over the account's sending rate: 429, a client fault the SDK classifies as throttling. */
export function sesThrottled(): Error {
  return new TooManyRequestsException({
    message: 'Maximum sending rate exceeded (injected fault).',
    $metadata: metadata(429),
  });
}

export function sesInternalError(): Error {
  return new InternalServiceErrorException({
    message: 'Internal service error (injected fault).',
    $metadata: metadata(500),
  });
}

/** SQS throttling (JSON protocol): 400 RequestThrottled. */
export function sqsThrottled(): Error {
  return new RequestThrottled({ message: 'Request is throttled (injected fault).', $metadata: metadata(400) });
}

/** SQS's unmodelled 500: the SDK surfaces it as the service's base exception named InternalError. */
export function sqsInternalError(): Error {
  return new SQSServiceException({
    name: 'InternalError',
    $fault: 'server',
    message: 'We encountered an internal error. Please try again (injected fault).',
    $metadata: metadata(500),
  });
}
