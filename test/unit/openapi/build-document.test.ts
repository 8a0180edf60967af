import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { generateOpenApiDocument, operationIdOf } from '../../../functions/openapi-document.js';
import { routes, type RouteDefinition } from '../../../functions/routes.js';
import type { HandlerContract } from '../../../shared/http/contract.js';
import { buildDocument } from '../../../shared/openapi/build-document.js';
import { SchemaCatalog } from '../../../shared/openapi/json-schema.js';

const Widget = z
  .object({ id: z.int(), name: z.nullable(z.string()) })
  .check(z.meta({ id: 'TestWidget', description: 'A widget' }));

const json = (route: Partial<Extract<HandlerContract, { kind: 'json' }>['route']>): HandlerContract => ({
  kind: 'json',
  auth: 'client',
  impliedErrors: [401, 500],
  route: { summary: 'Do it', responses: { 200: Widget }, ...route },
});

describe('buildDocument', () => {
  it('puts the envelope around the declared data and meta, with the named schema as a component', () => {
    // Act
    const document = buildDocument([
      {
        method: 'GET',
        path: '/api/v1/client/widgets',
        operationId: 'widgetsList',
        contract: json({
          responses: { 200: { data: z.object({ widgets: z.array(Widget) }), meta: z.object({ total: z.int() }) } },
        }),
      },
    ]);

    // Assess
    const schema = (
      document.paths['/api/v1/client/widgets']!['get']!.responses['200']!['content'] as Record<
        string,
        { schema: unknown }
      >
    )['application/json']!.schema;
    expect(schema).toMatchObject({
      properties: {
        data: { properties: { widgets: { type: 'array', items: { $ref: '#/components/schemas/TestWidget' } } } },
        errors: { type: 'array', maxItems: 0, items: { $ref: '#/components/schemas/ErrorItem' } },
        meta: {
          properties: { total: { type: 'integer' }, request_id: { type: 'string' } },
          required: ['total', 'request_id'],
        },
        success: { const: true },
      },
    });
    expect(document.components.schemas['TestWidget']).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } },
      required: ['id', 'name'],
      additionalProperties: false,
      description: 'A widget',
    });
    expect(document.tags).toEqual([{ name: 'Widgets' }]);
  });

  it('answers the statuses the wrapper implies and those the route declares, each pointing at the error envelope', () => {
    const document = buildDocument([
      {
        method: 'DELETE',
        path: '/api/v1/client/widgets/{id}',
        operationId: 'widgetsDelete',
        contract: json({ errors: [404, 409] }),
      },
    ]);

    const operation = document.paths['/api/v1/client/widgets/{id}']!['delete']!;
    expect(Object.keys(operation.responses)).toEqual(['200', '401', '404', '409', '431', '500']);
    expect(operation.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' });
    expect(operation.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    // A dashboard session may call it too, with the roles the access sentence names.
    expect(operation.security).toEqual([{ apiKey: [] }, { jwt: [] }, { session: [] }]);
    expect(operation.description).toBe(
      '**Access:** API key, JWT, or a dashboard session with role owner, admin, member.',
    );
    expect(Object.keys(document.components.responses)).toEqual([
      'Conflict',
      'InternalServerError',
      'NotFound',
      'RequestHeaderFieldsTooLarge',
      'Unauthorized',
    ]);
  });

  it('describes request inputs as the caller sends them, before transforms and defaults, with every bound the validator checks', () => {
    const document = buildDocument([
      {
        method: 'POST',
        path: '/api/v1/client/widgets',
        operationId: 'widgetsCreate',
        contract: json({
          query: z.object({
            dry_run: z.optional(
              z.pipe(
                z.enum(['true', 'false']),
                z.transform((v) => v === 'true'),
              ),
            ),
          }),
          body: z.object({
            name: z.string().check(z.trim(), z.meta({ description: 'Its name' })),
            size: z._default(z.int(), 1),
          }),
        }),
      },
    ]);

    const operation = document.paths['/api/v1/client/widgets']!['post']!;
    expect(operation.parameters).toEqual([
      { name: 'dry_run', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
    ]);
    expect(operation.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            // An integer beyond the safe range is refused (a 422), so a request says so; a response leaves it out.
            properties: {
              name: { type: 'string', description: 'Its name' },
              size: { type: 'integer', default: 1, minimum: -9007199254740991, maximum: 9007199254740991 },
            },
            required: ['name'],
          },
        },
      },
    });
  });

  it('describes a public page by its HTML answers, without security', () => {
    const page: HandlerContract = {
      kind: 'page',
      auth: 'none',
      impliedErrors: [500],
      route: {
        summary: 'A page',
        params: z.object({ token: z.string() }),
        pages: { 200: 'The page', 404: 'No such link' },
      },
    };
    const document = buildDocument([{ method: 'GET', path: '/p/{token}', operationId: 'page', contract: page }]);

    const operation = document.paths['/p/{token}']!['get']!;
    expect(operation).toMatchObject({ security: [], tags: ['Public links'] });
    expect(operation.responses['404']).toEqual({
      description: 'No such link',
      content: { 'text/html': { schema: { type: 'string' } } },
    });
  });

  it('refuses two different schemas with the same name', () => {
    const catalog = new SchemaCatalog();
    catalog.convert(Widget, 'output');
    const impostor = z.object({ id: z.string() }).check(z.meta({ id: 'TestWidget' }));

    expect(() => catalog.convert(impostor, 'output')).toThrow(/Two different schemas are named "TestWidget"/);
  });
});

describe('generateOpenApiDocument', () => {
  it('leaves the local-only routes out', async () => {
    const table: RouteDefinition[] = [
      { method: 'GET', path: '/health', handler: 'health', tableAccess: 'read' },
      { method: 'POST', path: '/dev/ses-events', handler: 'dev-ses-events', tableAccess: 'read', localOnly: true },
    ];

    const document = await generateOpenApiDocument(table);

    expect(Object.keys(document.paths)).toEqual(['/api/v1/health']);
  });

  it('reads route flags that agree with what each handler declares (pages answer HTML, bareJson a document)', async () => {
    for (const route of routes) {
      const { handler } = (await import(`../../../functions/http/${route.handler}.ts`)) as {
        handler: { contract: HandlerContract };
      };
      const { contract } = handler;
      expect(contract.kind === 'page', route.handler).toBe(route.html === true);
      const bare =
        contract.kind === 'json' && Object.values(contract.route.responses).some((spec) => 'document' in spec);
      expect(bare, route.handler).toBe(route.bareJson === true);
    }
    // Imports every HTTP handler's module graph (116 handlers, transformed on first import): seconds on a busy machine.
  }, 60_000);

  it('names operations after their handlers', () => {
    expect(operationIdOf('contacts-bulk-csv')).toBe('contactsBulkCsv');
  });
});
