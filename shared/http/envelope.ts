import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorItem } from '../errors.js';

/** The SPEC.md envelope carried by every response, success or failure. */
export interface Envelope<T = unknown> {
  data: T | Record<string, never>;
  errors: ErrorItem[];
  message: string;
  meta: Record<string, unknown>;
  success: boolean;
}

/** What a handler returns before the request id is stamped into `meta`. */
export interface ApiResult<T = unknown> {
  status: number;
  data: T;
  message?: string;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** An HTML page answered instead of the envelope (the public links in e-mails are opened in browsers). */
  page?: string;
}

export const ok = <T>(data: T, message = 'OK', meta?: Record<string, unknown>): ApiResult<T> => ({
  status: 200,
  data,
  message,
  meta,
});
export const created = <T>(data: T, message = 'Created', meta?: Record<string, unknown>): ApiResult<T> => ({
  status: 201,
  data,
  message,
  meta,
});
export const accepted = <T>(data: T, message = 'Accepted', meta?: Record<string, unknown>): ApiResult<T> => ({
  status: 202,
  data,
  message,
  meta,
});

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function successResponse(result: ApiResult, requestId: string): APIGatewayProxyStructuredResultV2 {
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
  const body: Envelope = {
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
  meta: Record<string, unknown> = {},
): APIGatewayProxyStructuredResultV2 {
  const body: Envelope = {
    data: {},
    errors: items,
    message,
    meta: { ...meta, request_id: requestId },
    success: false,
  };
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}
