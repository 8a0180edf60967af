import { chain, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import { describeHandler, type DescribedHandler, type ErrorStatus, type PageContract } from './contract.js';
import type { ApiResult } from './envelope.js';

/**
 * What a public page answers with: a status its contract declares and an HTML document, or a file of one of the
 * contract's `contentTypes` (the reference page's assets); `headers` add to or replace the page defaults.
 */
export type PageResult<S extends number = number> =
  | { status: S; html: string; headers?: Record<string, string>; cookies?: string[] }
  | { status: S; file: NonNullable<ApiResult['file']>; headers?: Record<string, string>; cookies?: string[] };

/** A page's result as the chain answers it: the HTML (or the file), its status, headers and cookies. */
export const pageAnswer = (result: PageResult) => ({
  status: result.status,
  data: {},
  headers: result.headers,
  ...(result.cookies ? { cookies: result.cookies } : {}),
  ...('html' in result ? { page: result.html } : { file: result.file }),
});

/**
 * Failures outside the page's own: a path the gateway cannot decode (400), a body too large (413), the caller's IP
 * over its per-minute limit (429), 500 — envelopes.
 */
const PAGE_ERRORS: readonly ErrorStatus[] = [400, 413, 429, 500];

/**
 * A public page (the links in e-mails): no authentication, the body left raw (RFC 8058 one-click posts are
 * form-encoded), HTML out. Failures the route expects (a bad token) are pages the route returns itself.
 */
export function publicPage<const C extends PageContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: RouteContext<P>) => Promise<PageResult<keyof C['pages'] & number>>,
): DescribedHandler {
  const handler = chain(contract, ports, { body: 'raw' }, async (input, ctx) =>
    pageAnswer(await fn(input as RouteInput<C>, ctx)),
  );
  return describeHandler(handler, { kind: 'page', auth: 'none', impliedErrors: PAGE_ERRORS, route: contract });
}
