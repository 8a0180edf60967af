import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { API_BASE_PATH, fullPath, routes, type RouteDefinition } from '../../../functions/routes.js';
import { Router } from '../../../shared/http/route-matcher.js';
import type { OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';

/**
 * Contract tests: every answer an integration test receives is checked against the OpenAPI document — the operation
 * its method and path name, the status it gave, and the JSON Schema of that status's body (ajv, draft 2020-12), so
 * the document cannot drift from the code. Answers without a JSON body (HTML pages, 204, HEAD) are checked for their
 * status only.
 */

// ajv-formats is CommonJS: under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

const SCHEMA_URN = 'urn:els:openapi:schemas:';
const ERROR_ENVELOPE = `${SCHEMA_URN}ErrorEnvelope`;

/** References to `components.schemas` as ajv resolves them: each component is registered under its own URN. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')
        ? SCHEMA_URN + child.slice('#/components/schemas/'.length)
        : absoluteRefs(child),
    ]),
  );
}

/**
 * An ajv (draft 2020-12, strict: unknown keywords are errors) that knows the document's component schemas.
 * `compile(schema)` takes any schema of the document.
 */
export function documentAjv(document: OpenApiDocument): {
  ajv: Ajv2020;
  compile: (schema: JsonSchema) => ValidateFunction;
} {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema({ ...(absoluteRefs(schema) as JsonSchema), $id: SCHEMA_URN + name });
  }
  return { ajv, compile: (schema) => ajv.compile(absoluteRefs(schema) as JsonSchema) };
}

export interface ReceivedAnswer {
  method: string;
  /** From the API's root, query string allowed: `/api/v1/client/contacts/7?x=1`. */
  path: string;
  status: number;
  contentType: string;
  text: string;
}

type Operation = OpenApiDocument['paths'][string][string];

/** Checks answers against `document`; `problems` returns what is wrong in readable lines (empty when nothing is). */
export class ContractChecker {
  private readonly compile: (schema: JsonSchema) => ValidateFunction;
  private readonly validators = new Map<string, ValidateFunction>();
  /** The servers' own route selection (shared/http/route-matcher.ts): the operation is the route that answered. */
  private readonly router: Router;

  constructor(
    private readonly document: OpenApiDocument,
    table: readonly RouteDefinition[] = routes,
  ) {
    this.compile = documentAjv(document).compile;
    this.router = new Router(table, { basePath: API_BASE_PATH });
  }

  problems(answer: ReceivedAnswer): string[] {
    const path = answer.path.split('?')[0]!;
    // HEAD answers a GET route without a body: the GET operation's statuses apply.
    const method = answer.method.toUpperCase() === 'HEAD' ? 'GET' : answer.method.toUpperCase();
    const match = this.router.match(method, path);
    const route = match.kind === 'matched' ? match.route : undefined;
    const body = parseJson(answer);
    if (!route) {
      // No operation (an unknown path, a method the path does not have, a CORS preflight): an error is still the
      // envelope; anything else has no contract to meet.
      if (answer.status < 400 || body === undefined) return [];
      return this.schemaProblems(
        ERROR_ENVELOPE,
        { $ref: ERROR_ENVELOPE },
        body,
        `${answer.method} ${path} (no operation)`,
        answer,
      );
    }
    if (route.localOnly) return [];
    const operation = this.document.paths[fullPath(route)]?.[method.toLowerCase()];
    const name = `${method} ${fullPath(route)}`;
    if (!operation) return [`${name} is in the route table but not in the OpenAPI document`];
    const label = `${name} (${operation.operationId})`;
    const response = this.responseOf(operation, answer.status);
    if (!response) {
      const declared = Object.keys(operation.responses).join(', ');
      return [`${label} answered ${answer.status}, a status its operation does not declare (declared: ${declared})`];
    }
    if (body === undefined) return [];
    const content = response['content'] as Record<string, { schema: JsonSchema }> | undefined;
    const schema = content?.['application/json']?.schema;
    if (!schema) return [`${label} answered ${answer.status} with JSON, but the document declares no JSON body for it`];
    return this.schemaProblems(`${operation.operationId} ${answer.status}`, schema, body, label, answer);
  }

  private responseOf(operation: Operation, status: number): JsonSchema | undefined {
    const response = operation.responses[String(status)];
    const ref = response?.['$ref'];
    if (typeof ref !== 'string') return response;
    return this.document.components.responses[ref.slice('#/components/responses/'.length)];
  }

  private schemaProblems(
    key: string,
    schema: JsonSchema,
    body: unknown,
    label: string,
    answer: ReceivedAnswer,
  ): string[] {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.compile(schema);
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return [
      `${label} answered ${answer.status} with a body that does not match the OpenAPI document:`,
      ...(validate.errors ?? []).map(describeError),
      `body: ${answer.text.length > 600 ? `${answer.text.slice(0, 600)}…` : answer.text}`,
    ];
  }
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(body)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  const detail =
    'additionalProperty' in params
      ? ` "${String(params['additionalProperty'])}"`
      : 'allowedValues' in params
        ? ` ${JSON.stringify(params['allowedValues'])}`
        : '';
  return `  ${at} ${error.message ?? error.keyword}${detail}`;
}

/** The answer's JSON body; undefined when it has none (empty, HTML, HEAD). */
function parseJson(answer: ReceivedAnswer): unknown {
  if (answer.text === '' || !/json/i.test(answer.contentType)) return undefined;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}
