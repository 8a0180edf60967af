/** One operation of the document: a route's contract as OpenAPI says it. */
import type * as z from '../validation/zod.js';
import type { ErrorStatus, HandlerContract, PageContract, RouteContract, SuccessSpec } from '../http/contract.js';
import { successEnvelope } from '../http/envelope.js';
import type { DocumentedRoute, OperationObject } from './build-document.js';
import { TAGS } from './document-info.js';
import { errorResponseRef } from './error-responses.js';
import { ErrorEnvelope } from '../http/envelope.js';
import { rateLimitHeaderRefs } from './rate-limit-headers.js';
import type { JsonSchema, SchemaCatalog } from './json-schema.js';
import { routeAccess } from '../domain/auth/route-access.js';
import { rolesWith } from '../domain/users/roles.js';

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

/** What the HTTP server answers for any request before a route is chosen: headers over its limit. */
const SERVER_ERRORS: readonly ErrorStatus[] = [431];

/** The operation of `route`; the error statuses it answers are added to `errorStatuses`. */
export function operationOf(
  route: DocumentedRoute,
  catalog: SchemaCatalog,
  errorStatuses: Set<ErrorStatus>,
): OperationObject {
  const { contract } = route;
  const declared = contract.route;
  const parameters = [
    ...pathParameters(route.path, declared.params, catalog),
    ...queryParameters(declared.query, catalog),
  ];
  const requestBody = requestBodyOf(contract, catalog);
  const declaredErrors = contract.kind === 'json' ? (contract.route.errors ?? []) : [];
  const errors = [...new Set([...contract.impliedErrors, ...declaredErrors, ...SERVER_ERRORS])];
  for (const status of errors) errorStatuses.add(status);
  const success =
    contract.kind === 'json'
      ? jsonResponses(contract.route, catalog, contract.auth === 'client')
      : pageResponses(contract.route);
  // A status that is both a page of the route and one of its implied errors (the callback's 400: a link that cannot be
  // used, or a query the gateway cannot decode) answers either: both bodies are stated.
  const errorEntry = (status: ErrorStatus) => {
    const page = success[String(status)] as { description: string; content: Record<string, unknown> } | undefined;
    if (contract.kind !== 'page' || !page) return [String(status), errorResponseRef(status)] as const;
    const envelope = { schema: catalog.convert(ErrorEnvelope, 'output') };
    const description = `${page.description}: an HTML page; a request that cannot be read at all (bad percent-encoding) answers the error envelope`;
    return [String(status), { description, content: { ...page.content, 'application/json': envelope } }] as const;
  };
  const responses = Object.fromEntries(
    [...Object.entries(success), ...errors.map(errorEntry)].sort(([a], [b]) => Number(a) - Number(b)),
  );
  const access = contract.auth === 'client' ? accessOf(route) : undefined;
  const description = [declared.description, access?.text].filter(Boolean).join('\n\n');
  return {
    operationId: route.operationId,
    summary: declared.summary,
    ...(description ? { description } : {}),
    tags: declared.tags ?? [tagOf(route)],
    security: access?.security ?? [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * Who may call an authenticated operation (shared/domain/auth/route-access.ts): its security schemes and the
 * sentence the description ends with — the roles a dashboard session needs, and session-only routes (a role short of
 * it is 403 `forbidden`; the session scheme states the CSRF header once).
 */
function accessOf(route: DocumentedRoute): { security: Record<string, string[]>[]; text: string } {
  const access = routeAccess(route.method, route.path.replace(/^\/api\/v1(?=\/)/, ''));
  const roles = rolesWith(access.permission).join(', ');
  if (access.sessionOnly)
    return {
      security: [{ session: [] }],
      text: `**Access:** a dashboard session only (an API key or JWT: 403); roles ${roles}.`,
    };
  return {
    security: [{ apiKey: [] }, { jwt: [] }, { session: [] }],
    text: `**Access:** API key, JWT, or a dashboard session with role ${roles}.`,
  };
}

/** `/client/<resource>/…` → the resource's tag (a client page too); a public page → Public links; anything else → Service. */
function tagOf(route: DocumentedRoute): string {
  if (route.contract.kind === 'page' && route.contract.auth === 'none') return 'Public links';
  const segments = route.path.split('/').filter(Boolean);
  const resource = segments[segments.indexOf('client') + 1];
  if (!segments.includes('client') || !resource) return 'Service';
  return (
    TAGS.find((t) => t.slug === resource)?.name ?? resource.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase())
  );
}

interface ObjectSchema {
  properties: Record<string, JsonSchema>;
  required: string[];
}

/** The properties of an object schema as the caller sends them. */
function objectOf(schema: z.ZodMiniType | undefined, catalog: SchemaCatalog): ObjectSchema {
  if (!schema) return { properties: {}, required: [] };
  const json = catalog.convert(schema, 'input');
  return {
    properties: (json['properties'] ?? {}) as Record<string, JsonSchema>,
    required: (json['required'] ?? []) as string[],
  };
}

/** Each `{name}` of the path, described by the contract's `params` schema where it has one. */
function pathParameters(path: string, params: z.ZodMiniType | undefined, catalog: SchemaCatalog): JsonSchema[] {
  const { properties } = objectOf(params, catalog);
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) =>
    parameter(name!, 'path', true, properties[name!] ?? { type: 'string' }),
  );
}

function queryParameters(query: z.ZodMiniType | undefined, catalog: SchemaCatalog): JsonSchema[] {
  const { properties, required } = objectOf(query, catalog);
  return Object.entries(properties).map(([name, schema]) => parameter(name, 'query', required.includes(name), schema));
}

function parameter(name: string, location: 'path' | 'query', required: boolean, schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return { name, in: location, required, ...(description ? { description } : {}), schema: rest };
}

function requestBodyOf(contract: HandlerContract, catalog: SchemaCatalog): JsonSchema | undefined {
  const { body, form } = contract.route as RouteContract & PageContract;
  if (body) {
    const schema = catalog.convert(body, 'input');
    // An absent body is read as `{}`: the body is required only when some field is.
    const required = Array.isArray(schema['required']) && schema['required'].length > 0;
    return { required, content: { 'application/json': { schema } } };
  }
  if (!form) return undefined;
  const schema = catalog.convert(form, 'input');
  if (contract.kind === 'page')
    return { required: false, content: { 'application/x-www-form-urlencoded': { schema } } };
  return { required: true, content: { 'multipart/form-data': { schema } } };
}

/** The success responses of a JSON route; an authenticated one's carry the RateLimit fields. */
function jsonResponses(route: RouteContract, catalog: SchemaCatalog, rateLimited: boolean): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(route.responses).map(([status, spec]) => {
      const { schema, description } = successSchema(spec as SuccessSpec);
      const text = description ?? SUCCESS_TEXT[Number(status)] ?? 'Success';
      const headers = rateLimited ? { headers: rateLimitHeaderRefs() } : {};
      return [
        status,
        {
          description: text,
          ...headers,
          content: { 'application/json': { schema: catalog.convert(schema, 'output') } },
        },
      ];
    }),
  );
}

/** The body schema of a success: the envelope around `data`, or a bare document. */
function successSchema(spec: SuccessSpec): { schema: z.ZodMiniType; description?: string } {
  if ('document' in spec) return { schema: spec.document, description: spec.description };
  if ('data' in spec && !('_zod' in spec))
    return { schema: successEnvelope(spec.data, spec.meta), description: spec.description };
  return { schema: successEnvelope(spec as z.ZodMiniType) };
}

function pageResponses(route: PageContract): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(route.pages).map(([status, description]) => [
      status,
      {
        description,
        content: Object.fromEntries(
          (route.contentTypes ?? ['text/html']).map((type) => [type, { schema: { type: 'string' } }]),
        ),
      },
    ]),
  );
}
