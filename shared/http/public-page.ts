import { chain, type LambdaHandler, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import type { InputSchemas } from './middleware/parse-input.js';

/** What a public page route answers: a status and an HTML document. */
export interface PageResult {
  status: number;
  html: string;
}

/**
 * A public page (the links in e-mails): no authentication, the body left raw (RFC 8058 one-click posts are
 * form-encoded), HTML out. Failures the route expects (a bad token) are pages the route returns itself.
 */
export function publicPage<S extends InputSchemas, const P extends RoutePorts>(
  schemas: S,
  ports: P,
  fn: (input: RouteInput<S>, ctx: RouteContext<P>) => Promise<PageResult>,
): LambdaHandler {
  return chain(schemas, ports, { body: 'raw' }, async (input, ctx) => {
    const { status, html } = await fn(input as RouteInput<S>, ctx);
    return { status, data: {}, page: html };
  });
}
