import * as z from './validation/zod.js';

/**
 * Every condition an error item may carry, each with its meaning: a closed list, one condition per rule, enumerated in
 * the OpenAPI document's `ErrorItem`. A client can switch on it; a new rule that fits none of these adds one here.
 */
export const ERROR_CONDITIONS = {
  malformed:
    '400: the request cannot be read: the body is not JSON, or not a JSON object; a path parameter is not valid ' +
    'percent-encoding (the local runtime also answers 421 for a host name it does not serve)',
  unauthorized: '401: credentials are missing or invalid (API key, JWT or session)',
  forbidden:
    '403: the caller is known but may not do this (its role, a suspended client, a route for signed-in users only, a ' +
    'session change without its CSRF token)',
  not_found: "404: no such record for this client (another client's record is 404 too), or no such route",
  method_not_allowed: '405: the path exists but not with this method (the Allow header lists those it has)',
  timeout: '408: the request was not received in time (the local runtime; on AWS, API Gateway answers itself)',
  unique:
    "409: another record already holds this value (a contact's e-mail or client_contact_id, a topic's name, an account's address)",
  idempotency_conflict: '409: the idempotency_key was used with a different body, or its event no longer exists',
  state:
    "409: the record's state refuses the operation: it changed concurrently (read it again and retry), another record " +
    'uses it (a template or topic named by a workflow), it is disabled, or the operation does not apply to its state',
  suppressed: '409: the address hard-bounced or complained before its contact was erased; it cannot be added again',
  max:
    '422, 413 or 431: over a bound: a length, count, value or size (a body or headers too large); 409: over a limit on ' +
    "records or actions (a plan's users, topics, webhook endpoints, replays)",
  unsupported_media_type: '415: the Content-Type is not one the route takes',
  required: '422: a required value is missing or empty',
  type: '422: the value has the wrong JSON type',
  format:
    "422: the value's form is wrong (an e-mail address, URL, timestamp, time zone, cursor) or it contradicts another field",
  min: '422: under a bound: a length, count or value, or a range whose end comes before its start',
  enum: '422: not one of the allowed values',
  unsafe:
    '422: refused for safety: a template with active content, a webhook URL pointing at a private address, a From ' +
    "address outside the client's verified domains or the service's own, a domain of the service's own",
  reference:
    '422: the value names something that does not exist or may not have happened: a journey step, template or topic ' +
    'the client does not have, or a send step that may not have run before the step reading it',
  graph:
    "422: a journey's steps do not form a valid graph: a step no path reaches, a cycle, or split percentages that do " +
    'not add up to 100',
  read_only: "422: the field cannot be set on this record (a workflow's category; a topic on a transactional workflow)",
  rate_limited: '429: over the request rate limit; the RateLimit and Retry-After headers say for how long',
  internal: '500: an internal error; quote the request id to support',
} as const satisfies Record<string, string>;

/** A condition of the closed list; AppError below carries it with its HTTP status in the envelope's error items. */
export type ErrorCondition = keyof typeof ERROR_CONDITIONS;

const CONDITION_NAMES = Object.keys(ERROR_CONDITIONS) as [ErrorCondition, ...ErrorCondition[]];

export const isErrorCondition = (value: unknown): value is ErrorCondition =>
  typeof value === 'string' && Object.hasOwn(ERROR_CONDITIONS, value);

/** An item of the envelope's `errors`: the one definition of its type and of the OpenAPI document's `ErrorItem`. */
export const ErrorItem = z
  .object({
    condition: z.enum(CONDITION_NAMES).check(
      z.meta({
        description: `What is wrong, one condition per rule:\n${CONDITION_NAMES.map((name) => `- \`${name}\`: ${ERROR_CONDITIONS[name]}`).join('\n')}`,
        examples: ['format'],
      }),
    ),
    error: z
      .string()
      .check(z.meta({ description: 'Human-readable explanation', examples: ['Must be a valid e-mail address'] })),
    key: z.string().check(
      z.meta({
        description: 'The offending field as a dotted path (`contacts.3.email`), or what failed',
        examples: ['email'],
      }),
    ),
  })
  .check(
    z.meta({
      id: 'ErrorItem',
      description: 'One problem of a failed request; all field problems are reported at once.',
    }),
  );
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

const item = (condition: ErrorCondition, key: string, error: string): ErrorItem => ({ condition, error, key });

export const malformed = (key: string, error: string) => new AppError(400, [item('malformed', key, error)]);
export const unauthorized = (error = 'Missing or invalid credentials') =>
  new AppError(401, [item('unauthorized', 'authorization', error)], 'Unauthorized');
export const forbidden = (key: string, error: string) =>
  new AppError(403, [item('forbidden', key, error)], 'Forbidden');
export const notFound = (key: string, error = 'Not found') => new AppError(404, [item('not_found', key, error)]);
export const conflict = (condition: ErrorCondition, key: string, error: string) =>
  new AppError(409, [item(condition, key, error)]);
export const tooLarge = (key: string, error: string) => new AppError(413, [item('max', key, error)]);
export const unsupportedMediaType = (error: string) =>
  new AppError(415, [item('unsupported_media_type', 'content-type', error)]);
/** 429: the client is over its request rate limit; the RateLimit and Retry-After headers say for how long. */
export const rateLimited = (error: string) =>
  new AppError(429, [item('rate_limited', 'request', error)], 'Too many requests');
export const unprocessable = (items: ErrorItem[]) => new AppError(422, items, 'Validation failed');
export const invalidField = (condition: ErrorCondition, key: string, error: string) =>
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
