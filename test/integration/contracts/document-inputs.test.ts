import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import type { OpenApiDocument, OperationObject } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';
import { request, type ApiResponse } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { documentAjv } from '../support/contract-check.js';
import { assertProperty } from '../fuzz/fixed-seed.js';
import { DocumentArbitraries } from './document-arbitrary.js';

/**
 * The OpenAPI document tells the whole truth about inputs. For every operation under /client, seeded and bounded:
 * - requests valid by the document (generated from its JSON Schemas, kept only if ajv validates them) succeed or fail
 *   for the state of the data — a documented 403 (a system template), 404 or 409, or a 422 the field's description
 *   marks "Depends on stored data" — never another 422 and never a 5xx;
 * - requests that break the document in one field are answered with a 4xx envelope (a bulk import: the bad row
 *   failed in its result), never a 5xx.
 */

const VALID_RUNS = 12;
const INVALID_RUNS = 8;

const SEGMENT_STATE = [
  { key: /^definition\.groups\.\d+\.conditions\.\d+\.topic_id$/, condition: 'reference' },
  { key: /^definition\.groups\.\d+\.conditions\.\d+\.source\.(journey_id|broadcast_id)$/, condition: 'reference' },
  { key: /^definition(\.groups\.\d+\.conditions\.\d+(\.source)?)?$/, condition: 'max' },
];
const BROADCAST_STATE = [
  {
    key: /^definition\.(variants\.\d+\.template_id|audience\.(segment_id|topic_id)|topic_id)$/,
    condition: 'reference',
  },
  { key: /^definition\.schedule\.(send_at|date)$/, condition: 'min' },
  { key: /^definition\.schedule\.(send_at|date)$/, condition: 'max' },
  { key: /^definition\.schedule\.date$/, condition: 'format' },
  { key: /^definition\.(audience|topic_id)$/, condition: 'read_only' },
  { key: /^definition\.topic_id$/, condition: 'format' },
  // Variants and their A/B test go together (a rule between fields, stated on both).
  { key: /^definition\.ab$/, condition: 'required' },
  { key: /^definition\.ab$/, condition: 'format' },
  { key: /^definition\.conversion$/, condition: 'required' },
];

/** The 422s a document-valid request may still get, per operation: those marked "Depends on stored data". */
const STATE_DEPENDENT: Record<string, { key: RegExp; condition: string }[]> = {
  'PATCH /api/v1/client/settings': [
    {
      key: /^(custom_email_quota_per_day|custom_email_quota_per_month|custom_max_workflows|enabled_workflows)$/,
      condition: 'max',
    },
    // A From only at the client's verified domains (the generated addresses are at example.com / example.org).
    { key: /^email_from_address$/, condition: 'unsafe' },
  ],
  'PATCH /api/v1/client/workflows/{workflow_id}/customization': [
    { key: /^preferred_send_hour$/, condition: 'required' },
  ],
  'GET /api/v1/client/contacts': [{ key: /^cursor$/, condition: 'format' }],
  'GET /api/v1/client/contacts/{id}/activity': [{ key: /^cursor$/, condition: 'format' }],
  // A cursor is the previous page's, and a numbered page stops at page × per_page ≤ 1 000 (both in the descriptions).
  'GET /api/v1/client/executions': [
    { key: /^cursor$/, condition: 'format' },
    { key: /^page$/, condition: 'max' },
    { key: /^page$/, condition: 'format' },
  ],
  'POST /api/v1/client/email-templates/list': [
    { key: /^cursor$/, condition: 'format' },
    { key: /^page$/, condition: 'max' },
    { key: /^page$/, condition: 'format' },
  ],
  'GET /api/v1/client/workflows/{workflow_id}/customization/audit': [
    { key: /^cursor$/, condition: 'format' },
    { key: /^page$/, condition: 'max' },
    { key: /^page$/, condition: 'format' },
  ],
  // Rules between two fields, which JSON Schema cannot state: `to` before `from`, or a range of more than 400 days,
  // is a 422; the fields' descriptions say so (the stats routes).
  'GET /api/v1/client/stats': [
    { key: /^from$/, condition: 'max' },
    { key: /^to$/, condition: 'min' },
  ],
  'GET /api/v1/client/workflows/{workflow_id}/stats': [
    { key: /^from$/, condition: 'max' },
    { key: /^to$/, condition: 'min' },
  ],
  'GET /api/v1/client/journeys/{id}/stats': [
    { key: /^from$/, condition: 'max' },
    { key: /^to$/, condition: 'min' },
  ],
  // A segment's topics, journeys and broadcasts must be the client's, and its event counters and engagement sources
  // stay within the client's 20 and 10 (all stated).
  'POST /api/v1/client/segments': SEGMENT_STATE,
  'POST /api/v1/client/segments/preview': SEGMENT_STATE,
  'PATCH /api/v1/client/segments/{id}': SEGMENT_STATE,
  'GET /api/v1/client/segments/{id}/contacts': [{ key: /^cursor$/, condition: 'format' }],
  'GET /api/v1/client/broadcasts/{id}/recipients': [{ key: /^cursor$/, condition: 'format' }],
  'GET /api/v1/client/broadcasts/{id}/recipients/export': [{ key: /^cursor$/, condition: 'format' }],
  // A broadcast's templates, topic and segment must be the client's; its time not past (both stated); a transactional
  // one goes to a segment under no topic, and a topic audience's topic_id names that topic (rules between fields).
  'POST /api/v1/client/broadcasts': BROADCAST_STATE,
  'PUT /api/v1/client/broadcasts/{id}': BROADCAST_STATE,
  // A test goes to the client's own users only: any other address is a `reference` (stated).
  'POST /api/v1/client/broadcasts/{id}/test': [{ key: /^emails\.\d+$/, condition: 'reference' }],
};

interface Generated {
  path: string;
  query: Record<string, string>;
  body?: unknown;
  form?: Record<string, string>;
}

let document: OpenApiDocument;
let arbitraries: DocumentArbitraries;
let compile: (schema: JsonSchema) => ValidateFunction;

beforeAll(async () => {
  document = await generateOpenApiDocument();
  arbitraries = new DocumentArbitraries(document);
  compile = documentAjv(document).compile;
});

/** Every operation below /api/v1/client, as `[METHOD path, method, path]`. */
async function operations(): Promise<[string, string, string][]> {
  const doc = await generateOpenApiDocument();
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1/client/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => [`${m.toUpperCase()} ${path}`, m, path] as [string, string, string]),
    );
}
const OPERATIONS = await operations();

/**
 * A client of its own per operation, with records its path parameters can name. In the sandbox (no verified domain):
 * what is asserted here is the answer to a request, not a send, and verifying a domain for each of the ~120 clients
 * would cost the run a quarter of its time. A claimed (unproven) domain gives the domain paths a record to name.
 */
async function prepare(): Promise<{ key: string; ids: Record<string, string[]> }> {
  const { api_key: key } = await createTestClient('scale', { sandbox: true });
  const contact = await request('POST', '/client/contacts', {
    key,
    body: { email: 'known@example.com', first_name: 'Known' },
  });
  const template = await request('POST', '/client/email-templates', {
    key,
    body: { name: 'Known', subject: 'Hi', html_body: '<p>Hi</p>' },
  });
  const event = await request('POST', '/client/events?sync=true', {
    key,
    body: { type: 'signup', email: 'known@example.com' },
  });
  const domain = await request('POST', '/client/domains', {
    key,
    body: { domain: `known-${randomUUID().slice(0, 8)}.test.example` },
  });
  return {
    key,
    ids: {
      contacts: [String(contact.body.data.id), 'known%40example.com'],
      'email-templates': [String(template.body.data.id), '1'],
      events: [String(event.body.data.id)],
      workflows: ['1', '2'],
      domains: [String(domain.body.data.id)],
    },
  };
}

function requestArbitrary(
  operation: OperationObject,
  path: string,
  ids: Record<string, string[]>,
): fc.Arbitrary<Generated> {
  const params = (operation.parameters ?? []) as { name: string; in: string; required: boolean; schema: JsonSchema }[];
  const resource = path.split('/')[4] ?? '';
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        // `.` and `..` are dot segments: a URL cannot carry them as a value (fetch resolves them away).
        const generated = (arbitraries.of(p.schema, p.name) as fc.Arbitrary<string>)
          .filter((v) => v.trim() !== '' && v !== '.' && v !== '..')
          .map(encodeURIComponent);
        const known = ids[resource] ?? [];
        return [p.name, known.length > 0 ? fc.oneof(fc.constantFrom(...known), generated) : generated];
      }),
    ),
  );
  const queryArb = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema, arbitraries.of(p.schema, p.name)).map(String)])),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const content =
    (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content ?? {};
  const json = content['application/json']?.schema;
  const multipart = content['multipart/form-data']?.schema;
  const bodyArb: fc.Arbitrary<Pick<Generated, 'body' | 'form'>> = json
    ? valid(json, arbitraries.of(json)).map((body) => ({ body }))
    : multipart
      ? formArbitrary(multipart)
      : fc.constant({});
  return fc
    .tuple(pathArb, queryArb, bodyArb)
    .map(([values, query, body]) => ({
      path: path.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name])),
      query: query as Record<string, string>,
      ...body,
    }))
    .filter((r) => describedRulesHold(r));
}

/** Only what ajv validates against the whole schema (the keywords the generator leaves to it: not, allOf, …). */
function valid<T>(schema: JsonSchema, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  const validate = compile(schema);
  return arbitrary.filter((value) => validate(value) === true);
}

/** The CSV form: a small file of generated addresses, and the option fields as the document gives them. */
function formArbitrary(schema: JsonSchema): fc.Arbitrary<Pick<Generated, 'form'>> {
  const properties = schema['properties'] as Record<string, JsonSchema>;
  const options = Object.fromEntries(
    Object.entries(properties)
      .filter(([name]) => name !== 'file')
      .map(([name, field]) => [name, valid(field, arbitraries.of(field, name))]),
  );
  const rows = fc.array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 3 });
  return fc.tuple(rows, fc.record(options, { requiredKeys: [] })).map(([locals, fields]) => ({
    form: {
      ...(fields as Record<string, string>),
      // With has_header false the first row is data; either way every row is an address.
      file: ['email', ...locals.map((l) => `${l}@example.com`)].join('\n'),
    },
  }));
}

/** Rules the document states in a description, between fields: created_to is not before created_from. */
function describedRulesHold(r: Generated): boolean {
  const { created_from: from, created_to: to } = r.query;
  return !(from && to && Date.parse(from) > Date.parse(to));
}

/** An operation whose success the document states as an HTML page (the preference page's preview), not the envelope. */
const answersHtml = (operation: OperationObject): boolean =>
  Object.keys(
    (operation.responses['200'] as { content?: Record<string, unknown> } | undefined)?.content ?? {},
  ).includes('text/html');

async function send(method: string, generated: Generated, key: string, html = false): Promise<ApiResponse> {
  const query = new URLSearchParams(generated.query).toString();
  const path = `${generated.path.replace('/api/v1', '')}${query ? `?${query}` : ''}`;
  if (html) {
    // Its page on success; a refusal is the envelope like any route's.
    const response = await fetch(`${inject('baseUrl')}${path}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${key}` },
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    return {
      status: response.status,
      body: json ? JSON.parse(text) : undefined,
      headers: Object.fromEntries(response.headers),
      text,
    } as ApiResponse;
  }
  if (generated.form) {
    const form = new FormData();
    for (const [name, value] of Object.entries(generated.form)) {
      if (name === 'file') form.append('file', new Blob([value], { type: 'text/csv' }), 'contacts.csv');
      else form.append(name, value);
    }
    return request(method.toUpperCase(), path, { key, rawBody: form });
  }
  return request(method.toUpperCase(), path, {
    key,
    ...(generated.body === undefined ? {} : { body: generated.body }),
  });
}

const describeRequest = (method: string, g: Generated, res: ApiResponse) =>
  `${method.toUpperCase()} ${g.path}?${new URLSearchParams(g.query)} ${JSON.stringify(g.body ?? g.form ?? null).slice(0, 600)} → ${res.status} ${res.text.slice(0, 600)}`;

describe('inputs valid by the document', () => {
  it.each(OPERATIONS)(
    '%s: succeed or fail only for the state of the data',
    async (name, method, path) => {
      const operation = document.paths[path]![method]!;
      let { key, ids } = await prepare();
      await assertProperty(
        fc.asyncProperty(requestArbitrary(operation, path, ids), async (generated) => {
          const html = answersHtml(operation);
          const res = await send(method, generated, key, html);
          const what = describeRequest(method, generated, res);
          expect(res.status, what).toBeLessThan(500);
          if (res.status < 300 && html) {
            expect(res.headers['content-type'], what).toMatch(/^text\/html/);
            // A page of the service's is a whole document; an e-mail document (its sandbox CSP) is the client's HTML as written.
            const emailDocument = (res.headers['content-security-policy'] ?? '').startsWith('sandbox;');
            if (!emailDocument) expect(res.text.trimStart().startsWith('<!DOCTYPE html>'), what).toBe(true);
            return;
          }
          if (res.status < 300) {
            // A rotation disables the key it was called with: go on with the new one.
            if (name === 'POST /api/v1/client/api-keys/rotate') key = res.body.data.key;
            return;
          }
          // A business error the operation documents: the record is not there (404), is not the client's to change
          // (403, a system template), or conflicts with stored data (409).
          expect([403, 404, 409, 422], what).toContain(res.status);
          expect(operation.responses[String(res.status)], what).toBeDefined();
          if (res.status === 422) {
            const allowed = STATE_DEPENDENT[name] ?? [];
            for (const item of res.body.errors) {
              expect(
                allowed.some((a) => a.key.test(item.key) && a.condition === item.condition),
                what,
              ).toBe(true);
            }
          }
        }),
        { numRuns: VALID_RUNS, seedOffset: OPERATIONS.findIndex(([n]) => n === name) },
      );
    },
    120_000,
  );
});

/** A value no schema of a request admits where an object is not allowed, or a string where one is. */
const WRONG_VALUES: unknown[] = [{ wrong: [1] }, 'not-a-valid-value', 12345.5, [null], -1];

describe('inputs that break the document', () => {
  it.each(OPERATIONS)(
    '%s: answer a 4xx envelope, never a 5xx',
    async (name, method, path) => {
      const operation = document.paths[path]![method]!;
      const { key, ids } = await prepare();
      const jsonSchema = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json']?.schema;
      const queryParams = ((operation.parameters ?? []) as { name: string; in: string; schema: JsonSchema }[]).filter(
        (p) => p.in === 'query',
      );
      const bodyFields = Object.keys((jsonSchema?.['properties'] ?? {}) as object);
      const targets = [
        ...bodyFields.map((f) => ['body', f] as const),
        ...queryParams.map((p) => ['query', p.name] as const),
      ];
      if (targets.length === 0) return; // nothing a caller could send wrongly but the path, which names nothing (404)

      const broken = fc
        .tuple(requestArbitrary(operation, path, ids), fc.constantFrom(...targets), fc.constantFrom(...WRONG_VALUES))
        .map(([generated, [where, field], wrong]) => {
          if (where === 'body') return { ...generated, body: { ...(generated.body as object), [field]: wrong } };
          return {
            ...generated,
            query: { ...generated.query, [field]: typeof wrong === 'string' ? wrong : JSON.stringify(wrong) },
          };
        })
        .filter((g) => !isValidByDocument(g, jsonSchema, queryParams));

      await assertProperty(
        fc.asyncProperty(broken, async (generated) => {
          const res = await send(method, generated, key);
          const what = describeRequest(method, generated, res);
          // A bulk import reports a bad row in its result and writes the others (one bad row never fails the rest).
          if (name === 'POST /api/v1/client/contacts/bulk' && res.status === 200) {
            expect(res.body.data.failed, what).toBeGreaterThan(0);
            return;
          }
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.status, what).toBeLessThan(500);
          expect(res.body.success, what).toBe(false);
          expect(res.body.errors.length, what).toBeGreaterThan(0);
        }),
        { numRuns: INVALID_RUNS, seedOffset: 1000 + OPERATIONS.findIndex(([n]) => n === name) },
      );
    },
    120_000,
  );
});

function isValidByDocument(
  g: Generated,
  body: JsonSchema | undefined,
  query: { name: string; schema: JsonSchema }[],
): boolean {
  if (body && !compile(body)(g.body)) return false;
  return query.every((p) => g.query[p.name] === undefined || compile(p.schema)(g.query[p.name]));
}
