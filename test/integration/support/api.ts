import { expect, inject } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import { API_BASE_PATH } from '../../../functions/routes.js';
import { ContractChecker } from './contract-check.js';

/** A timestamp as the API writes it: RFC 3339 in UTC. */
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** The SPEC's `deleted_at` of a live record (a Go-style null time). */
export const NOT_DELETED = { time: '0001-01-01T00:00:00Z', valid: false };

/**
 * The SPEC envelope as a test reads it. `data` and the error items are loose on purpose: assertions reach into
 * them (`res.body.errors.find(...).condition`) and `toEqual` checks their exact shape anyway.
 */
export interface EnvelopeBody<T = any> {
  data: T;
  /** Items of `{ condition, error, key }`. */
  errors: any[];
  message: string;
  meta: Record<string, any>;
  success: boolean;
}

export interface ApiResponse<T = any> {
  status: number;
  /** Parsed JSON body (every answer of the API is the envelope). */
  body: EnvelopeBody<T>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The raw body text. */
  text: string;
}

export interface RequestOptions {
  /** API key (or JWT) sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Sent as JSON with `content-type: application/json`. */
  body?: unknown;
  /** Sent as is (string, Buffer, FormData, …); set the content type in `headers`. */
  rawBody?: string | Uint8Array | FormData | Blob;
  headers?: Record<string, string>;
}

/** One HTTP request to the shared local runtime; `path` is below `/api/v1`, e.g. `/client/contacts/1`. */
export async function request<T = any>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  let body: RequestInit['body'];
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;

  const response = await fetch(`${inject('baseUrl')}${path}`, { method, headers, body });
  const text = await response.text();
  await checkContract({
    method,
    path: `${API_BASE_PATH}${path}`,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
  });
  let parsed: EnvelopeBody<T>;
  try {
    parsed = JSON.parse(text) as EnvelopeBody<T>;
  } catch {
    throw new Error(`${method} ${path} answered ${response.status} with a non-JSON body: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed, headers: Object.fromEntries(response.headers), text };
}

let checker: Promise<ContractChecker> | undefined;

/**
 * Every answer is a contract test: it must be one the OpenAPI document declares for its operation and status, with a
 * body its schema accepts (test/integration/support/contract-check.ts). The document is generated from the code once
 * per test worker.
 */
export async function checkContract(answer: Parameters<ContractChecker['problems']>[0]): Promise<void> {
  checker ??= generateOpenApiDocument().then((document) => new ContractChecker(document));
  const problems = (await checker).problems(answer);
  if (problems.length > 0) throw new Error(`Contract test failed: ${problems.join('\n')}`);
}

/** `request` that also proves that no response shows the caller's full API key. */
export async function call(
  method: string,
  path: string,
  options: RequestOptions & { key: string },
): Promise<ApiResponse> {
  const res = await request(method, path, options);
  expect(res.text).not.toContain(options.key);
  return res;
}
