import { getContainer } from '../composition/container.js';
import { authenticator } from '../composition/providers/authenticator.js';
import type { Principal } from '../domain/auth/authenticate.js';
import { chain, type RouteContext, type RouteInput, type RoutePorts } from './chain.js';
import {
  describeHandler,
  validationErrors,
  type DescribedHandler,
  type ErrorStatus,
  type PageContract,
  type ResultOf,
  type RouteContract,
} from './contract.js';
import { pageAnswer, type PageResult } from './public-page.js';
import { CSRF_FORM_FIELD } from './form-fields.js';
import { rateLimiter } from '../composition/providers/rate-limiter.js';
import { authenticate } from './middleware/authenticate.js';
import { rateLimit } from './middleware/rate-limit.js';

export type { LambdaHandler, RouteContext, RouteInput, RoutePorts } from './chain.js';

export interface AuthedRouteContext<P extends RoutePorts = RoutePorts> extends RouteContext<P> {
  principal: Principal;
  clientId: number;
}

const guard = authenticate(() => getContainer().use(authenticator));
/** The guard of a page that takes a form: the session's CSRF token may come as the form's field. */
const formGuard = authenticate(() => getContainer().use(authenticator), { csrfFormField: CSRF_FORM_FIELD });
const limitOf = (contract: Pick<RouteContract, 'rateLimit'>) =>
  rateLimit(() => getContainer().use(rateLimiter), contract.rateLimit ?? 'api');

/**
 * What any authenticated route can answer, whatever it does: a body that does not parse (400), no or a bad
 * credential (401), a suspended client (403), a body over the gateway's limit (413), a wrong content type (415),
 * the client over its rate limit (429), an internal error (500); and input that fails its schema (422) when it has input.
 */
const clientRouteErrors = (contract: RouteContract): ErrorStatus[] => [
  400,
  401,
  403,
  413,
  415,
  ...validationErrors(contract),
  429,
  500,
];

/**
 * A JSON route behind authentication (API key or JWT bearer):
 * `jsonApi(contract, [contactStore, ids, clock], async (input, ctx) => ok(await domainCall(ctx.deps, ...)))`.
 * The chain normalises headers, authenticates, parses the JSON body, validates path/query/body with the contract's
 * zod schemas and maps every error to the envelope; `ctx.deps` holds exactly the listed ports. What `fn` answers
 * must be one of the contract's `responses`.
 */
export function jsonApi<const C extends RouteContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: AuthedRouteContext<P>) => Promise<ResultOf<C['responses']>>,
): DescribedHandler {
  const handler = chain(contract, ports, { guard, limit: limitOf(contract), body: 'json' }, (input, ctx) =>
    fn(input as RouteInput<C>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
  return describeHandler(handler, {
    kind: 'json',
    auth: 'client',
    impliedErrors: clientRouteErrors(contract),
    route: contract,
  });
}

/** An authenticated route whose body the route reads itself (multipart uploads: the contract's `form`). */
export function rawBodyApi<const C extends RouteContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: AuthedRouteContext<P>) => Promise<ResultOf<C['responses']>>,
): DescribedHandler {
  const handler = chain(contract, ports, { guard, limit: limitOf(contract), body: 'raw' }, (input, ctx) =>
    fn(input as RouteInput<C>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
  );
  return describeHandler(handler, {
    kind: 'json',
    auth: 'client',
    impliedErrors: clientRouteErrors(contract),
    route: contract,
  });
}

/**
 * An HTML page behind authentication (the dashboard's preview of the preference page; the e-mail
 * documents it frames): the same chain as a JSON route — the credential or the session cookie, the role (a GET needs
 * `read`), the CSRF token of a session's POST, the client's rate limit — and an HTML answer on success. A refusal
 * (401, 403, 404, 422, 429) is the JSON envelope, as on every authenticated route. A page with a `form` is posted by
 * a browser's form (the route reads it with `parseForm`): its CSRF token may be the form's `csrf_token` field.
 */
export function clientPage<const C extends PageContract, const P extends RoutePorts>(
  contract: C,
  ports: P,
  fn: (input: RouteInput<C>, ctx: AuthedRouteContext<P>) => Promise<PageResult<keyof C['pages'] & number>>,
): DescribedHandler {
  const handler = chain(
    contract,
    ports,
    { guard: contract.form ? formGuard : guard, limit: limitOf({}), body: 'raw' },
    async (input, ctx) =>
      pageAnswer(
        await fn(input as RouteInput<C>, { ...ctx, principal: ctx.principal!, clientId: ctx.principal!.clientId }),
      ),
  );
  const formErrors: ErrorStatus[] = contract.form ? [413, 415] : [];
  const errors: ErrorStatus[] = [
    400,
    401,
    403,
    ...(contract.errors ?? []),
    ...formErrors,
    ...validationErrors(contract),
    429,
    500,
  ];
  return describeHandler(handler, { kind: 'page', auth: 'client', impliedErrors: errors, route: contract });
}
