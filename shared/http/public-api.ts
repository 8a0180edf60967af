import { chain, type LambdaHandler, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import type { ApiResult } from './envelope.js';
import type { InputSchemas } from './middleware/parse-input.js';

/** A route without authentication (health): no authenticator, so no auth code in its bundle. */
export function publicApi<S extends InputSchemas, const P extends RoutePorts>(
  schemas: S,
  ports: P,
  fn: (input: RouteInput<S>, ctx: RouteContext<P>) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, ports, { body: 'json' }, (input, ctx) => fn(input as RouteInput<S>, ctx));
}
