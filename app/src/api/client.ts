import { parse as parseCookies } from 'cookie';
import createClient, { type Middleware } from 'openapi-fetch';
import { CSRF_COOKIE, CSRF_HEADER } from '../../../shared/public/session-rules.js';
import type { paths } from './openapi.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session's CSRF token, from its cookie (undefined signed out). */
export const csrfToken = (): string | undefined => parseCookies(document.cookie)[CSRF_COOKIE];

/** Adds the session's CSRF token (the cookie the sign-in callback sets for script to read) to every request that changes something. */
const csrf: Middleware = {
  onRequest({ request }) {
    if (SAFE_METHODS.has(request.method)) return undefined;
    const token = csrfToken();
    if (token) request.headers.set(CSRF_HEADER, token);
    return request;
  },
};

/**
 * The API, typed from docs/openapi.json: a path, method, parameter or response field the document does not have is a
 * compile error. Same origin; the session cookie goes along by itself (fetch's default `same-origin` credentials).
 * `fetch` is looked up at each call, so the component tests can replace it.
 */
export function createApi(baseUrl: string = window.location.origin) {
  return clientOf<paths>(baseUrl);
}

/** A same-origin client of the routes `P` describes, sending the session's CSRF token like the API's. */
export function clientOf<P extends {}>(baseUrl: string = window.location.origin) {
  const client = createClient<P>({ baseUrl, fetch: (request) => globalThis.fetch(request) });
  client.use(csrf);
  return client;
}

export type Api = ReturnType<typeof createApi>;

/** An error item of the envelope. */
export interface ErrorItem {
  condition: string;
  error: string;
  key?: string | null;
}

/** The envelope's message and error items of a failed answer, for the page to show. */
export function failureOf(error: unknown, fallback: string): { message: string; errors: ErrorItem[] } {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    const errors = 'errors' in error && Array.isArray(error.errors) ? (error.errors as ErrorItem[]) : [];
    return { message: error.message, errors };
  }
  return { message: fallback, errors: [] };
}
