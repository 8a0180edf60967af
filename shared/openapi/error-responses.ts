import type { ErrorCondition } from '../errors.js';
import type { ErrorStatus } from '../http/contract.js';
import { ErrorEnvelope } from '../http/envelope.js';
import type { JsonSchema, SchemaCatalog } from './json-schema.js';
import { errorHeaderRefs } from './rate-limit-headers.js';

/** What each error status means for a caller, and a body it may get (DESIGN.md §5). */
const ERRORS: Record<
  ErrorStatus,
  { name: string; description: string; condition: ErrorCondition; key: string; error: string; message?: string }
> = {
  400: {
    name: 'BadRequest',
    description: 'The body or query could not be read (not JSON, not an object, bad percent-encoding)',
    condition: 'malformed',
    key: 'body',
    error: 'The request body is not valid JSON',
  },
  401: {
    name: 'Unauthorized',
    description: 'The Authorization header is missing or malformed, or the key is unknown or disabled',
    condition: 'unauthorized',
    key: 'authorization',
    error: 'The API key is unknown or disabled',
    message: 'Unauthorized',
  },
  403: {
    name: 'Forbidden',
    description:
      'The credential is valid but the request is not allowed (a suspended client, a read-only system template)',
    condition: 'forbidden',
    key: 'client',
    error: 'The client account is suspended',
    message: 'Forbidden',
  },
  404: {
    name: 'NotFound',
    description: "No such record for this client (another client's record is answered the same way)",
    condition: 'not_found',
    key: 'id',
    error: 'Contact not found',
  },
  409: {
    name: 'Conflict',
    description: 'The request conflicts with the current state: `unique`, `idempotency_conflict` or `state`',
    condition: 'unique',
    key: 'email',
    error: 'A contact with this e-mail already exists',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The body, file or number of rows is over its limit',
    condition: 'max',
    key: 'contacts',
    error: 'At most 1000 contacts per request (got 1200); split the import',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body has the wrong content type',
    condition: 'unsupported_media_type',
    key: 'content-type',
    error: 'The request body must be application/json',
  },
  422: {
    name: 'UnprocessableEntity',
    description: 'Input failed validation; every problem of the request is an item (`key` is the dotted field path)',
    condition: 'format',
    key: 'email',
    error: 'Must be a valid e-mail address',
    message: 'Validation failed',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'The client is over its request rate limit, or — where no valid credential was given (public pages, sign-in, ' +
      "a failed API key or session) — the caller's IP is over its per-minute limit (RateLimit-Policy names which); " +
      'retry after the Retry-After seconds',
    condition: 'rate_limited',
    key: 'request',
    error: 'Over the limit of 50 requests a second for this client; retry after 1 s',
    message: 'Too many requests',
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    description: 'The request line and headers are over the server’s limit (refused before any route is chosen)',
    condition: 'max',
    key: 'headers',
    error: 'The request line and headers exceed 16384 bytes',
    message: 'Request Header Fields Too Large',
  },
  500: {
    name: 'InternalServerError',
    description: 'An internal error; the answer shows only the request id, quote it to support',
    condition: 'internal',
    key: 'request',
    error: 'An internal error occurred; quote the request id to support',
    message: 'Internal server error',
  },
};

/** The reference an operation's error status points at. */
export const errorResponseRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${ERRORS[status].name}` });

/** `components.responses` for the error statuses the document uses: the error envelope, with an example each. */
export function errorResponses(statuses: Iterable<ErrorStatus>, catalog: SchemaCatalog): Record<string, JsonSchema> {
  const schema = catalog.convert(ErrorEnvelope, 'output');
  const entries = [...new Set(statuses)]
    .sort((a, b) => a - b)
    .map((status) => {
      const { name, description, condition, key, error, message } = ERRORS[status];
      const example = {
        data: {},
        errors: [{ condition, error, key }],
        message: message ?? error,
        meta: { request_id: 'c0ffee00-0000-4000-8000-000000000000' },
        success: false,
      };
      const headers = errorHeaderRefs(status);
      return [
        name,
        { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema, example } } },
      ] as const;
    });
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
