import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import type { OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';
import {
  type conflict,
  ERROR_CONDITIONS,
  type invalidField,
  isErrorCondition,
  type ErrorCondition,
  type ErrorItem,
} from '../../../shared/errors.js';
import { issueCondition, issueToItem } from '../../../shared/validation/issue-items.js';

/**
 * The error conditions are a closed list. Every place that emits one compiles against `ErrorCondition` (AppError's
 * helpers take it, ErrorItem's type carries it, custom zod issues name it through issueCondition), so a condition
 * outside the list is a type error; these tests hold the document to the same list.
 */

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);
const CONDITIONS = Object.keys(ERROR_CONDITIONS);

let document: OpenApiDocument;
beforeAll(async () => {
  document = await generateOpenApiDocument();
}, 60_000);

const conditionSchema = (doc: { components: { schemas: Record<string, JsonSchema> } }): JsonSchema => {
  const item = doc.components.schemas['ErrorItem'] as { properties: Record<string, JsonSchema> };
  return item.properties['condition']!;
};

describe('error conditions', () => {
  it('the document enumerates exactly the union, the generated one and the committed one', () => {
    expect(conditionSchema(document)).toMatchObject({ type: 'string', enum: CONDITIONS });
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as OpenApiDocument;
    expect(conditionSchema(committed)['enum']).toEqual(CONDITIONS);
  });

  it('the document says what each condition means', () => {
    const description = String(conditionSchema(document)['description']);
    for (const [condition, meaning] of Object.entries(ERROR_CONDITIONS))
      expect(description).toContain(`- \`${condition}\`: ${meaning}`);
  });

  it('is closed in the types: the item, the helpers and custom zod issues take nothing else', () => {
    expectTypeOf<ErrorItem['condition']>().toEqualTypeOf<ErrorCondition>();
    expectTypeOf<Parameters<typeof conflict>[0]>().toEqualTypeOf<ErrorCondition>();
    expectTypeOf<Parameters<typeof invalidField>[0]>().toEqualTypeOf<ErrorCondition>();
    expectTypeOf<Parameters<typeof issueCondition>[0]>().toEqualTypeOf<ErrorCondition>();
    // The conditions that once slipped through an open `string` are gone: one condition per rule.
    for (const leaked of ['conflict', 'in_use', 'disabled', 'quota']) expect(isErrorCondition(leaked)).toBe(false);
    expectTypeOf<'in_use'>().not.toExtend<ErrorCondition>();
    expectTypeOf<'conflict'>().not.toExtend<ErrorCondition>();
  });

  it('a custom zod issue keeps its condition; a condition outside the list cannot reach an answer', () => {
    const issue = { code: 'custom' as const, path: ['topic_id'], message: 'no', input: 1 };
    expect(issueToItem({ ...issue, params: issueCondition('read_only') }).condition).toBe('read_only');
    expect(issueToItem({ ...issue, params: { condition: 'in_use' } }).condition).toBe('format');
  });
});
