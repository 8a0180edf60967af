import { getContainer } from '../composition/container.js';
import { authenticator } from '../composition/providers/authenticator.js';
import type { Principal } from '../domain/auth/authenticate.js';
import { chain, type LambdaHandler, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import type { ApiResult } from './envelope.js';
import { authenticate } from './middleware/authenticate.js';
import type { InputSchemas } from './middleware/parse-input.js';

export type { LambdaHandler, RouteContext, RouteInput, RoutePorts } from './chain.js';

export interface AuthedRouteContext<P extends RoutePorts = RoutePorts> extends RouteContext<P> {
  principal: Principal;
  clientId: number;
}

const guard = authenticate(() => getContainer().use(authenticator));

/**
 * A JSON route behind authentication:
 * `jsonApi(schemas, [contactStore, ids, clock], async (input, ctx) => ok(await domainCall(ctx.deps, ...)))`.
 * The chain normalises headers, authenticates, parses the JSON body, validates path/query/body with zod and
 * maps every error to the envelope; `ctx.deps` holds exactly the listed ports.
 */
export function jsonApi<S extends InputSchemas, const P extends RoutePorts>(
  schemas: S,
  ports: P,
  fn: (input: RouteInput<S>, ctx: AuthedRouteContext<P>) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, ports, { guard, body: 'json' }, (input, ctx) =>
    fn(input as RouteInput<S>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
}

/** An authenticated route whose body the route reads itself (multipart uploads). */
export function rawBodyApi<S extends InputSchemas, const P extends RoutePorts>(
  schemas: S,
  ports: P,
  fn: (input: RouteInput<S>, ctx: AuthedRouteContext<P>) => Promise<ApiResult>,
): LambdaHandler {
  return chain(schemas, ports, { guard, body: 'raw' }, (input, ctx) =>
    fn(input as RouteInput<S>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
}
