import type { ErrorStatus, HandlerContract } from '../http/contract.js';
import { API_VERSION, DESCRIPTION, SECURITY_SCHEMES, SERVERS, TAGS } from './document-info.js';
import { errorResponses } from './error-responses.js';
import { SchemaCatalog, type JsonSchema } from './json-schema.js';
import { operationOf } from './operation.js';
import { RATE_LIMIT_HEADER_COMPONENTS } from './rate-limit-headers.js';

/**
 * The OpenAPI 3.1 document, built from what the routes declare and nothing written twice: method and path from the
 * route table, parameters, bodies and responses from the contracts' zod schemas, security and the common error
 * statuses from the wrapper of each handler, the envelope and the error item from their one definition
 * (shared/http/envelope.ts, shared/errors.ts). functions/openapi-document.ts feeds it the route table.
 */

/** One route as the document sees it. */
export interface DocumentedRoute {
  method: string;
  /** From the API's root, API Gateway syntax: `/api/v1/client/contacts/{id}`, `/u/{token}`. */
  path: string;
  operationId: string;
  contract: HandlerContract;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: {
    url: string;
    description: string;
    variables?: Record<string, { default: string; description: string }>;
    'x-internal'?: boolean;
  }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: Record<string, string[]>[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  /** A response, or a `$ref` to `components.responses`. */
  responses: Record<string, JsonSchema>;
}

/** The document of `routes`, in their order; components sorted by name, so the same code gives the same bytes. */
export function buildDocument(routes: readonly DocumentedRoute[]): OpenApiDocument {
  const catalog = new SchemaCatalog();
  const errorStatuses = new Set<ErrorStatus>();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    const methods = paths[route.path]!;
    const method = route.method.toLowerCase();
    if (methods[method]) throw new Error(`${route.method} ${route.path} is in the route table twice`);
    methods[method] = operationOf(route, catalog, errorStatuses);
  }
  const responses = errorResponses(errorStatuses, catalog);
  const used = new Set(Object.values(paths).flatMap((methods) => Object.values(methods).flatMap((op) => op.tags)));
  return {
    openapi: '3.1.0',
    info: { title: 'Email Lifecycle Service API', version: API_VERSION, description: DESCRIPTION },
    servers: SERVERS,
    tags: [
      ...TAGS.filter((t) => used.has(t.name)).map(({ name, description }) => ({ name, description })),
      ...[...used]
        .filter((name) => !TAGS.some((t) => t.name === name))
        .sort()
        .map((name) => ({ name })),
    ],
    paths,
    components: {
      schemas: catalog.schemas(),
      responses,
      headers: RATE_LIMIT_HEADER_COMPONENTS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The document as `docs/openapi.json` holds it: pretty-printed, one trailing newline. */
export const documentText = (document: OpenApiDocument): string => `${JSON.stringify(document, null, 2)}\n`;
