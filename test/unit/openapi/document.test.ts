import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import { fullPath, routes } from '../../../functions/routes.js';
import { documentText, type OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';
import { documentAjv } from '../../integration/support/contract-check.js';

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);

let document: OpenApiDocument;
beforeAll(async () => {
  document = await generateOpenApiDocument();
}, 60_000);

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );

/** Every Schema Object of the document with where it is: components, parameters, bodies, responses. */
function schemasOf(doc: OpenApiDocument): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = Object.entries(doc.components.schemas).map(([name, s]) => [
    `components.schemas.${name}`,
    s,
  ]);
  const contentSchemas = (where: string, content: unknown) =>
    Object.entries((content ?? {}) as Record<string, { schema: JsonSchema }>).map(
      ([type, media]) => [`${where} ${type}`, media.schema] as [string, JsonSchema],
    );
  for (const [name, response] of Object.entries(doc.components.responses))
    found.push(...contentSchemas(`components.responses.${name}`, response['content']));
  for (const { key, operation } of operations()) {
    for (const p of operation.parameters ?? [])
      found.push([`${key} parameter ${String(p['name'])}`, p['schema'] as JsonSchema]);
    found.push(...contentSchemas(`${key} requestBody`, operation.requestBody?.['content']));
    for (const [status, response] of Object.entries(operation.responses))
      found.push(...contentSchemas(`${key} ${status}`, response['content']));
  }
  return found;
}

/** Each `examples` entry of a schema, anywhere in it, with the schema it illustrates. */
function examplesIn(schema: unknown, at: string): { at: string; schema: JsonSchema; example: unknown }[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => examplesIn(s, `${at}/${i}`));
  const record = schema as JsonSchema;
  const own = Array.isArray(record['examples'])
    ? record['examples'].map((example) => ({ at, schema: record, example }))
    : [];
  return [
    ...own,
    ...Object.entries(record)
      .filter(([key]) => key !== 'examples')
      .flatMap(([key, child]) => examplesIn(child, `${at}/${key}`)),
  ];
}

describe('the OpenAPI document', () => {
  it('is committed as docs/openapi.json exactly as the code generates it (run `npm run openapi` after a change)', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    expect(
      committed === documentText(document),
      'docs/openapi.json is out of date: run `npm run openapi` and commit it',
    ).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    expect(document.info.version).toBe('1.38.0');
  });

  it('holds only schemas that compile as strict JSON Schema 2020-12', () => {
    const { compile } = documentAjv(document);
    const failures = schemasOf(document).flatMap(([where, schema]) => {
      try {
        compile(schema);
        return [];
      } catch (error) {
        return [`${where}: ${(error as Error).message}`];
      }
    });
    expect(failures).toEqual([]);
    // Compiling every schema of the document (hundreds, the journey definition's among them) is CPU-bound: ~4 s alone,
    // twice that on a busy 2-core machine, over vitest's 5 s default.
  }, 30_000);

  it('gives examples that match their schemas', () => {
    const { compile } = documentAjv(document);
    const examples = schemasOf(document).flatMap(([where, schema]) => examplesIn(schema, where));
    const mediaExamples = Object.entries(document.components.responses).map(([name, r]) => {
      const media = (r['content'] as Record<string, { schema: JsonSchema; example: unknown }>)['application/json']!;
      return { at: `components.responses.${name}`, schema: media.schema, example: media.example };
    });
    expect(examples.length).toBeGreaterThan(10);
    const mismatches = [...examples, ...mediaExamples].filter(({ schema, example }) => {
      const { examples: _examples, ...rest } = schema;
      return !compile(rest)(example);
    });
    expect(mismatches.map((m) => `${m.at}: ${JSON.stringify(m.example)}`)).toEqual([]);
  }, 30_000);

  it('names every route of the route table with its method, and leaves out the local-only ones', () => {
    const expected = routes.filter((r) => !r.localOnly).map((r) => `${r.method} ${fullPath(r)}`);
    expect(
      operations()
        .map((o) => o.key)
        .sort(),
    ).toEqual(expected.sort());
    expect(routes.some((r) => r.localOnly)).toBe(true);
    expect(JSON.stringify(document.paths)).not.toContain('/dev/');
  });

  it('asks for the API key, a JWT or a session exactly where the handler authenticates, and only a session where only a session may', () => {
    const isPublic = (key: string) =>
      /^GET \/api\/v1\/(health|openapi\.json|docs|docs\/assets\/\{file\}|auth\/callback)$/.test(key) ||
      key === 'POST /api/v1/auth/sign-in' ||
      key === 'POST /api/v1/auth/callback' ||
      / \/(u|v)\/\{token\}$/.test(key) ||
      // The dashboard's HTML, files and records' pages: the app signs in through the API.
      /^GET \/app(\/\{name\}(\/\{id\})?)?$/.test(key);
    const sessionOnly = (key: string) =>
      / \/api\/v1\/(auth\/(me|sign-out)|client\/(users|api-keys)(\/\{id\})?)$/.test(key);
    for (const { key, operation } of operations()) {
      const expected = isPublic(key)
        ? []
        : sessionOnly(key)
          ? [{ session: [] }]
          : [{ apiKey: [] }, { jwt: [] }, { session: [] }];
      expect(operation.security, key).toEqual(expected);
      if (!isPublic(key)) expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '403']));
      if (!isPublic(key)) expect(operation.description, key).toContain('**Access:**');
    }
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer' },
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      session: { type: 'apiKey', in: 'cookie', name: 'els_session' },
    });
  });

  it('states what the sign-in link answers: GET a page (200) or, for a bad link, an HTML page (400); POST 303, 200, 400, 403 pages', () => {
    const callback = (document.paths['/api/v1/auth/callback'] ?? {}) as Record<
      string,
      { responses: Record<string, { content?: Record<string, unknown> }> }
    >;
    for (const method of ['get', 'post']) {
      const bad = callback[method]!.responses['400']!;
      expect(Object.keys(bad.content ?? {}).sort(), method).toEqual(['application/json', 'text/html']);
    }
    expect(Object.keys(callback['get']!.responses['200']!.content ?? {})).toEqual(['text/html']);
    for (const status of ['200', '303', '403'])
      expect(Object.keys(callback['post']!.responses[status]!.content ?? {}), status).toEqual(['text/html']);
  });

  it('describes every operation: summary, tag, operationId, a success, a 500, and each path parameter', () => {
    const ids = new Set<string>();
    for (const { key, operation } of operations()) {
      expect(operation.summary, key).toMatch(/\S/);
      expect(operation.tags.length, key).toBe(1);
      expect(
        document.tags.map((t) => t.name),
        key,
      ).toContain(operation.tags[0]);
      expect(ids.has(operation.operationId), key).toBe(false);
      ids.add(operation.operationId);
      expect(
        Object.keys(operation.responses).some((s) => s.startsWith('2')),
        key,
      ).toBe(true);
      expect(operation.responses['500'], key).toEqual({ $ref: '#/components/responses/InternalServerError' });
      const templated = [...key.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const declared = (operation.parameters ?? []).filter((p) => p['in'] === 'path').map((p) => p['name']);
      expect(declared, key).toEqual(templated);
    }
  });

  it('wraps each JSON success in the envelope around its data', () => {
    const created = document.paths['/api/v1/client/contacts']!['post']!.responses['201']!;
    expect(created['content']).toEqual({
      'application/json': {
        schema: expect.objectContaining({
          type: 'object',
          required: ['data', 'errors', 'message', 'meta', 'success'],
          additionalProperties: false,
          properties: expect.objectContaining({
            data: { $ref: '#/components/schemas/Contact' },
            success: { type: 'boolean', const: true },
          }),
        }),
      },
    });
    const page = document.paths['/u/{token}']!['get']!.responses['200']!;
    expect(page['content']).toEqual({ 'text/html': { schema: { type: 'string' } } });
  });
});
