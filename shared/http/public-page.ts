import { chain, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import { describeHandler, type DescribedHandler, type ErrorStatus, type PageContract } from './contract.js';

/** What a public page answers with: a status its contract declares and an HTML document. */
export interface PageResult<S extends number = number> {
  status: S;
  html: string;
}

/** Failures outside the page's own: a path the gateway cannot decode (400), a body too large (413), 500 — envelopes. */
const PAGE_ERRORS: readonly ErrorStatus[] = [400, 413, 500];

/**
 * A public page (the links in e-mails): no authentication, the body left raw (RFC 8058 one-click posts are
 * form-encoded), HTML out. Failures the route expects (a bad token) are pages the route returns itself.
 */
export function publicPage<const C extends PageContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: RouteContext<P>) => Promise<PageResult<keyof C['pages'] & number>>,
): DescribedHandler {
  const handler = chain(contract, ports, { body: 'raw' }, async (input, ctx) => {
    const { status, html } = await fn(input as RouteInput<C>, ctx);
    return { status, data: {}, page: html };
  });
  return describeHandler(handler, { kind: 'page', auth: 'none', impliedErrors: PAGE_ERRORS, route: contract });
}
