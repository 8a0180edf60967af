import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import type { OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';
import { documentAjv } from '../support/contract-check.js';
import { DocumentArbitraries } from '../contracts/document-arbitrary.js';
import { assertProperty } from './fixed-seed.js';
import { FuzzSession } from './fuzz-session.js';

/**
 * A body valid by the document, plus members it does not name (an outside fuzzer's finding: an unknown top-level
 * member holding 3.01256131608584e+16 reached the store and answered 500). Every JSON-body operation under /client
 * answers below 500, with the envelope and the document's statuses, and a refusal writes nothing (FuzzSession).
 */

const RUNS_PER_OPERATION = 8;

/** Values the store cannot hold, or only just: beyond ±(2^53 − 1), below 1e-130, huge, deep, empty keys. */
const hostileValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '3.01256131608584e+16',
    '-9007199254740992',
    '9007199254740991',
    '1e300',
    '-1e400',
    '1e-200',
    '5e-324',
    '0',
    '{"":1}',
    '{"__proto__":{"x":1}}',
    '[[[[[[[[[[1]]]]]]]]]]',
    '{"a":{"b":[1e300]}}',
    `"${'x'.repeat(40_000)}"`,
    'null',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
);

/** Names no schema holds (and a few that objects find on their prototype). */
const unknownName = fc.oneof(
  fc.constantFrom(
    'x',
    'extra',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'payload',
    'id',
    'client_id',
    '0',
  ),
  fc.stringMatching(/^zz_[a-z0-9_]{1,20}$/),
);

let session: FuzzSession;
let document: OpenApiDocument;
let arbitraries: DocumentArbitraries;
let compile: ReturnType<typeof documentAjv>['compile'];
let existingIds: string[];

const doc = await generateOpenApiDocument();
/** `[METHOD path, method, path, body schema]` of every operation under /client with a JSON body. */
const OPERATIONS = Object.entries(doc.paths)
  .filter(([path]) => path.startsWith('/api/v1/client/'))
  .flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      const schema = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json']?.schema;
      return schema ? [[`${method.toUpperCase()} ${path}`, method.toUpperCase(), path, schema] as const] : [];
    }),
  );

beforeAll(async () => {
  document = doc;
  arbitraries = new DocumentArbitraries(document);
  compile = documentAjv(document).compile;
  session = await FuzzSession.open();
  const made = await session.probe({
    method: 'POST',
    path: '/client/email-templates',
    credentials: { kind: 'client-key' },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fuzz', subject: 'Hi', html_body: '<p>Hi</p>' }),
  });
  existingIds = ['1', String((JSON.parse(made.text) as { data: { id: number } }).data.id)];
});

describe('document-valid bodies with members the document does not name', () => {
  it.each(OPERATIONS.map((op, index) => [...op, index] as const))(
    'are answered on %s below 500, writing nothing when refused',
    async (_name, method, path, schema, index) => {
      const validate = compile(schema);
      const base = (arbitraries.of(schema) as fc.Arbitrary<unknown>).filter(
        (v) => validate(v) === true && typeof v === 'object' && v !== null,
      );
      const known = new Set(Object.keys((schema['properties'] ?? {}) as Record<string, unknown>));
      const extras = fc.uniqueArray(
        fc.tuple(
          unknownName.filter((n) => !known.has(n)),
          hostileValue,
        ),
        { minLength: 1, maxLength: 3, selector: ([n]) => n },
      );
      const request = fc.tuple(base, extras, fc.constantFrom(...existingIds));
      await assertProperty(
        fc.asyncProperty(request, async ([body, members, id]) => {
          // Written as text, so each number reaches the server exactly as spelled here.
          const known = JSON.stringify(body).slice(1, -1);
          const text = `{${[known, ...members.map(([name, value]) => `${JSON.stringify(name)}:${value}`)].filter(Boolean).join(',')}}`;
          await session.probe({
            method,
            path: path.replace('/api/v1', '').replace(/\{\w+\}/g, id),
            html: path.endsWith('/html'),
            credentials: { kind: 'client-key' },
            headers: { 'content-type': 'application/json' },
            body: text,
          });
        }),
        { numRuns: RUNS_PER_OPERATION, seedOffset: 7_000 + index },
      );
    },
    120_000,
  );
});
