import { chain, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import {
  describeHandler,
  validationErrors,
  type DescribedHandler,
  type ErrorStatus,
  type ResultOf,
  type RouteContract,
} from './contract.js';

/**
 * What any public JSON route can answer: an unparsable body (400), too large (413), not JSON (415), the caller's IP
 * over its per-minute limit (429), 500; 422 with input.
 */
const publicRouteErrors = (contract: RouteContract): ErrorStatus[] => [
  400,
  413,
  415,
  ...validationErrors(contract),
  429,
  500,
];

/** A route without authentication (health): no authenticator, so no auth code in its bundle. */
export function publicApi<const C extends RouteContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: RouteContext<P>) => Promise<ResultOf<C['responses']>>,
): DescribedHandler {
  const handler = chain(contract, ports, { body: 'json' }, (input, ctx) => fn(input as RouteInput<C>, ctx));
  return describeHandler(handler, {
    kind: 'json',
    auth: 'none',
    impliedErrors: publicRouteErrors(contract),
    route: contract,
  });
}
