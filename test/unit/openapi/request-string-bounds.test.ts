import { beforeAll, describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import type { OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';
import {
  MAX_PATH_ID_LENGTH,
  MAX_TIMESTAMP_LENGTH,
  MAX_ZONE_NAME_LENGTH,
} from '../../../shared/validation/string-bounds.js';
import { ContactBody, ContactRef } from '../../../shared/domain/contacts/schemas.js';
import { EventBody, EventIdParams } from '../../../shared/domain/events/schemas.js';
import { ExecutionListQuery } from '../../../shared/domain/executions/schemas.js';
import { ClientStatsQuery } from '../../../shared/domain/stats/schemas.js';
import { SettingsPatch } from '../../../shared/domain/settings/schemas.js';
import { CsvImportOptions, MAX_DELIMITER_LENGTH } from '../../../shared/domain/contacts/csv-options.js';
import { issuesToItems } from '../../../shared/validation/issue-items.js';

/**
 * Every request string of the document has a `maxLength` (an outside OWASP lint counted 70 without), and the
 * validator enforces it: one character over is a 422 `max` at the field.
 */

/**
 * Request strings still without a bound, each named: the list may only shrink (it is empty). A public page
 * declares no 422: its file names and link tokens are bounded in the document and a longer one is its 404 or 400 page.
 */
const NOT_YET_BOUNDED = new Set<string>([]);

let document: OpenApiDocument;
beforeAll(async () => {
  document = await generateOpenApiDocument();
}, 60_000);

/** Whether a schema (following $refs and every branch) holds a string type without maxLength. */
function unboundedStrings(schema: unknown, doc: OpenApiDocument, seen = new Set<string>()): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const s = schema as JsonSchema;
  if (typeof s['$ref'] === 'string') {
    const name = s['$ref'].replace('#/components/schemas/', '');
    if (seen.has(name)) return false;
    return unboundedStrings(doc.components.schemas[name], doc, new Set([...seen, name]));
  }
  const types = [s['type']].flat();
  if (types.includes('string') && s['maxLength'] === undefined && s['enum'] === undefined && s['const'] === undefined)
    return true;
  const children = [
    ...Object.values((s['properties'] ?? {}) as Record<string, unknown>),
    s['items'],
    s['additionalProperties'],
    s['propertyNames'],
    ...((s['anyOf'] ?? []) as unknown[]),
    ...((s['oneOf'] ?? []) as unknown[]),
    ...((s['allOf'] ?? []) as unknown[]),
  ];
  return children.some((child) => unboundedStrings(child, doc, seen));
}

/** `METHOD path where name` of every request field (parameters; top-level body properties) with an unbounded string. */
function unboundedRequestStrings(doc: OpenApiDocument): string[] {
  const found: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      for (const p of operation.parameters ?? []) {
        if (unboundedStrings(p['schema'], doc)) found.push(`${key} ${String(p['in'])} ${String(p['name'])}`);
      }
      const content =
        ((operation.requestBody ?? {}) as { content?: Record<string, { schema: JsonSchema }> }).content ?? {};
      for (const media of Object.values(content)) {
        const properties = (media.schema['properties'] ?? {}) as Record<string, unknown>;
        for (const [name, property] of Object.entries(properties))
          if (unboundedStrings(property, doc)) found.push(`${key} body ${name}`);
        if (unboundedStrings({ ...media.schema, properties: {} }, doc)) found.push(`${key} body (other members)`);
      }
    }
  }
  return [...new Set(found)];
}

describe('request strings', () => {
  it('each have a maxLength in the document, but for the named ones still to bound', () => {
    const unbounded = unboundedRequestStrings(document);
    expect(unbounded.filter((where) => !NOT_YET_BOUNDED.has(where))).toEqual([]);
    // The list only shrinks: a field bounded since is taken off it.
    expect([...NOT_YET_BOUNDED].filter((where) => !unbounded.includes(where))).toEqual([]);
  });

  const over = (n: number) => 'x'.repeat(n + 1);
  it.each<[string, z.ZodMiniType, unknown, string]>([
    ['a path id', EventIdParams, { id: over(MAX_PATH_ID_LENGTH) }, 'id'],
    ['a contact path id', ContactRef, { id: over(MAX_PATH_ID_LENGTH) }, 'id'],
    [
      'a timestamp',
      ContactBody,
      { email: 'a@example.com', last_purchase_at: over(MAX_TIMESTAMP_LENGTH) },
      'last_purchase_at',
    ],
    ['a time zone', ContactBody, { email: 'a@example.com', timezone: over(MAX_ZONE_NAME_LENGTH) }, 'timezone'],
    ['an event time', EventBody, { type: 'signup', email: 'a@example.com', ts: over(MAX_TIMESTAMP_LENGTH) }, 'ts'],
    ['an executions bound', ExecutionListQuery, { created_from: over(MAX_TIMESTAMP_LENGTH) }, 'created_from'],
    ['a stats day', ClientStatsQuery, { from: over(10) }, 'from'],
    ['a colour', SettingsPatch, { brand_primary_color: over(32) }, 'brand_primary_color'],
    ['weekdays', SettingsPatch, { send_window_allowed_days: over(64) }, 'send_window_allowed_days'],
    ['a CSV delimiter', CsvImportOptions, { delimiter: over(MAX_DELIMITER_LENGTH) }, 'delimiter'],
    ['a CSV default time zone', CsvImportOptions, { default_timezone: over(MAX_ZONE_NAME_LENGTH) }, 'default_timezone'],
  ])('refuses %s one character over its bound with a 422 max at its key', (_what, schema, input, key) => {
    const parsed = z.safeParse(schema, input);

    expect(parsed.success).toBe(false);
    expect(issuesToItems(parsed.error!.issues, [])).toContainEqual(expect.objectContaining({ condition: 'max', key }));
  });
});
