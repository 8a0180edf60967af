import * as z from './validation/zod.js';

/** One error family: each error carries its HTTP status and the envelope's error items. */
export type ErrorCondition =
  | 'malformed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'unique'
  | 'idempotency_conflict'
  | 'state'
  | 'max'
  | 'unsupported_media_type'
  | 'required'
  | 'format'
  | 'type'
  | 'min'
  | 'enum'
  | 'unsafe'
  | 'quota'
  | 'rate_limited'
  | 'suppressed'
  | 'method_not_allowed'
  | 'internal';

/** An item of the envelope's `errors`: the one definition of its type and of the OpenAPI document's `ErrorItem`. */
export const ErrorItem = z
  .object({
    condition: z.string().check(z.meta({
      description:
        'What is wrong: malformed, unauthorized, forbidden, not_found, unique, idempotency_conflict, state, max, ' +
        'unsupported_media_type, required, format, type, min, enum, unsafe, quota, rate_limited, suppressed, method_not_allowed or internal',
      examples: ['format'],
    })),
    error: z.string().check(z.meta({ description: 'Human-readable explanation', examples: ['Must be a valid e-mail address'] })),
    key: z.string().check(z.meta({ description: 'The offending field as a dotted path (`contacts.3.email`), or what failed', examples: ['email'] })),
  })
  .check(z.meta({ id: 'ErrorItem', description: 'One problem of a failed request; all field problems are reported at once.' }));
export type ErrorItem = z.output<typeof ErrorItem>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly items: ErrorItem[],
    message?: string,
  ) {
    super(message ?? items[0]?.error ?? 'Request failed');
    this.name = 'AppError';
  }
}

const item = (condition: ErrorCondition | (string & {}), key: string, error: string): ErrorItem => ({ condition, error, key });

export const malformed = (key: string, error: string) => new AppError(400, [item('malformed', key, error)]);
export const unauthorized = (error = 'Missing or invalid credentials') =>
  new AppError(401, [item('unauthorized', 'authorization', error)], 'Unauthorized');
export const forbidden = (key: string, error: string) => new AppError(403, [item('forbidden', key, error)], 'Forbidden');
export const notFound = (key: string, error = 'Not found') => new AppError(404, [item('not_found', key, error)]);
export const conflict = (condition: ErrorCondition | (string & {}), key: string, error: string) =>
  new AppError(409, [item(condition, key, error)]);
export const tooLarge = (key: string, error: string) => new AppError(413, [item('max', key, error)]);
export const unsupportedMediaType = (error: string) =>
  new AppError(415, [item('unsupported_media_type', 'content-type', error)]);
/** 429: the client is over its request rate limit; the RateLimit and Retry-After headers say for how long. */
export const rateLimited = (error: string) => new AppError(429, [item('rate_limited', 'request', error)], 'Too many requests');
export const unprocessable = (items: ErrorItem[]) => new AppError(422, items, 'Validation failed');
export const invalidField = (condition: ErrorCondition | (string & {}), key: string, error: string) =>
  unprocessable([item(condition, key, error)]);

/**
 * A queue message that can never succeed, however often it is delivered (the item it points at is gone, the
 * provider refused the mail for good). The SQS batch wrapper records it (its `onPermanentFailure`), logs it and
 * acknowledges the message; any other error is retryable: SQS delivers the message again, then to the DLQ.
 * `reason` is a short code the item keeps (an execution's `reason`, an event's `process_error`).
 */
export class PermanentFailure extends Error {
  constructor(
    readonly reason: string,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(message ?? reason, options);
    this.name = 'PermanentFailure';
  }
}
