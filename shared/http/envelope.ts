import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from '../validation/zod.js';
import { ErrorItem } from '../errors.js';

/*
 * The SPEC.md envelope carried by every JSON response, success or failure: defined once here, as zod schemas that
 * type the bodies below and describe every response of the OpenAPI document.
 */

/** `meta` of every answer: the request id, quoted to support; a route may add its own fields (pagination…). */
export const RequestMeta = z.object({
  request_id: z.string().check(z.meta({ description: 'Identifies the request in the logs; quote it to support' })),
});

/** The envelope of a success: `data` as the route declares it, `meta` with the route's own fields if any. */
export function successEnvelope<D extends z.ZodMiniType, M extends z.ZodMiniObject = z.ZodMiniObject<{}>>(
  data: D,
  meta?: M,
) {
  return z.object({
    data,
    errors: z.array(ErrorItem).check(z.maxLength(0), z.meta({ description: 'Always empty on success' })),
    message: z.string().check(z.meta({ description: 'Human-readable outcome' })),
    meta: z.extend(meta ?? z.object({}), RequestMeta.shape),
    success: z.literal(true),
  });
}

/** The envelope of every failure: `data` is `{}` and `errors` says what went wrong. */
export const ErrorEnvelope = z
  .object({
    data: z.object({}).check(z.meta({ description: 'Always an empty object on errors' })),
    errors: z.array(ErrorItem).check(z.minLength(1)),
    message: z.string().check(z.meta({ description: 'Human-readable outcome', examples: ['Validation failed'] })),
    meta: RequestMeta,
    success: z.literal(false),
  })
  .check(z.meta({ id: 'ErrorEnvelope', description: 'The envelope of a failed request.' }));

type SuccessBody = z.output<ReturnType<typeof successEnvelope<z.ZodMiniUnknown, z.ZodMiniObject<{}, z.core.$loose>>>>;
type ErrorBody = z.output<typeof ErrorEnvelope>;

/** What a handler returns before the request id is stamped into `meta`; `S` is the status it answers. */
export interface ApiResult<T = unknown, S extends number = number> {
  status: S;
  data: T;
  message?: string;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** An HTML page answered instead of the envelope (the public links in e-mails are opened in browsers). */
  page?: string;
  /** A file answered as it is (the API reference's scripts and styles); base64 when compressed. */
  file?: { contentType: string; body: string; base64: boolean };
  /** `data` is answered as the JSON body itself, without the envelope (the OpenAPI document). */
  bare?: true;
  /** Set-Cookie values (a sign-in's session, a sign-out's expired cookies): payload 2.0's `cookies`. */
  cookies?: string[];
}

export const ok = <T>(data: T, message = 'OK', meta?: Record<string, unknown>): ApiResult<T, 200> => ({
  status: 200,
  data,
  message,
  meta,
});
export const created = <T>(data: T, message = 'Created', meta?: Record<string, unknown>): ApiResult<T, 201> => ({
  status: 201,
  data,
  message,
  meta,
});
export const accepted = <T>(data: T, message = 'Accepted', meta?: Record<string, unknown>): ApiResult<T, 202> => ({
  status: 202,
  data,
  message,
  meta,
});
/** A JSON document answered as it is, outside the envelope (tools read the OpenAPI document from its URL). */
export const bareJson = <T>(data: T): ApiResult<T, 200> & { bare: true } => ({ status: 200, data, bare: true });

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function successResponse(result: ApiResult, requestId: string): APIGatewayProxyStructuredResultV2 {
  const response = answerOf(result, requestId);
  return result.cookies?.length ? { ...response, cookies: result.cookies } : response;
}

function answerOf(result: ApiResult, requestId: string): APIGatewayProxyStructuredResultV2 {
  if (result.file !== undefined) {
    return {
      statusCode: result.status,
      headers: { 'content-type': result.file.contentType, 'x-request-id': requestId, ...(result.headers ?? {}) },
      body: result.file.body,
      isBase64Encoded: result.file.base64,
    };
  }
  if (result.page !== undefined) {
    return {
      statusCode: result.status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'x-request-id': requestId,
        // A page about one person's subscription: never cached, never framed, no referrer leaking the token.
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        ...(result.headers ?? {}),
      },
      body: result.page,
    };
  }
  if (result.bare) {
    return {
      statusCode: result.status,
      headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...(result.headers ?? {}) },
      body: JSON.stringify(result.data),
    };
  }
  const body: SuccessBody = {
    data: result.data ?? {},
    errors: [],
    message: result.message ?? 'OK',
    meta: { ...(result.meta ?? {}), request_id: requestId },
    success: true,
  };
  return {
    statusCode: result.status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...(result.headers ?? {}) },
    body: JSON.stringify(body),
  };
}

export function errorResponse(
  status: number,
  items: ErrorItem[],
  message: string,
  requestId: string,
): APIGatewayProxyStructuredResultV2 {
  const body: ErrorBody = {
    data: {},
    errors: items,
    message,
    meta: { request_id: requestId },
    success: false,
  };
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}
