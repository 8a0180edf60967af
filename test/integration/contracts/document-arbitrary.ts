import fc from 'fast-check';
import type { OpenApiDocument } from '../../../shared/openapi/build-document.js';
import type { JsonSchema } from '../../../shared/openapi/json-schema.js';

/**
 * fast-check arbitraries built from the OpenAPI document's JSON Schemas: values valid by the document,
 * generated from the keywords that shape them (type, enum, const, bounds, lengths, pattern, format, items, properties,
 * required, propertyNames, anyOf, $ref). Keywords that only constrain (not, allOf, dependentRequired, uniqueness
 * across branches) are left to the caller's filter: it keeps only what ajv validates against the whole schema.
 *
 * Rules the document states only in a `description` (an IANA zone name, distinct weekdays) are what a client reads
 * there and follows, so they are honoured here by name: DESCRIBED_RULES.
 */

/** Generators for fields whose rule is in their description, not in JSON Schema. */
const DESCRIBED_RULES: Record<string, fc.Arbitrary<unknown>> = {
  timezone: fc.constantFrom('Europe/Paris', 'America/New_York', 'Asia/Singapore', 'UTC', 'EST', 'PST', 'SGT'),
  default_timezone: fc.constantFrom('Europe/Paris', 'America/New_York', 'EST', 'SGT'),
  send_window_allowed_days: fc
    .uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 })
    .map((days) => days.join(',')),
};

/** Text without `<` (a template part may hold no tag but interpolations: a rule of the description). */
const plainChar = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,:;!?@#&()\'"/éüßñ漢'.split(''),
);
const plainText = (minLength: number, maxLength: number) => fc.string({ unit: plainChar, minLength, maxLength });

/** Instants from 2000 to 2025: never ahead of the server's clock (an event `ts` may be at most 5 minutes ahead). */
const pastInstant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2025, 11, 31) }).map((ms) => new Date(ms));

const MAX_ITEMS = 4;
const MAX_OPTIONAL = 5;
const MAX_DEPTH = 3;

export class DocumentArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

  /** A value valid by `schema` (before the caller's ajv filter); `name` is the property it is for, if any. */
  of(schema: JsonSchema, name?: string, depth = 0): fc.Arbitrary<unknown> {
    if (name !== undefined && DESCRIBED_RULES[name]) return DESCRIBED_RULES[name]!;
    const ref = schema['$ref'];
    if (typeof ref === 'string') return this.of(this.resolve(ref), name, depth + 1);
    if ('const' in schema) return fc.constant(schema['const']);
    if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
    const branches = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
    if (branches && !schema['type'] && !schema['properties']) {
      // Deep in a recursive schema, only the branches that end the recursion.
      const ending = branches.filter((b) => !['array', 'object'].includes(String(b['type'])));
      // A union of objects only (no recursion to end) is taken whole at any depth.
      const usable = depth >= MAX_DEPTH && ending.length > 0 ? ending : branches;
      return fc.oneof(...usable.map((b) => this.of(b, name, depth + 1)));
    }
    const type = schema['type'];
    if (Array.isArray(type)) return fc.oneof(...type.map((t) => this.of({ ...schema, type: t }, name, depth)));
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerOf(schema);
      case 'number':
        return numberOf(schema);
      case 'string':
        return stringOf(schema);
      case 'array':
        return this.arrayOf(schema, depth);
      case 'object':
        return this.objectOf(schema, depth);
      default:
        return fc.constant({});
    }
  }

  private resolve(ref: string): JsonSchema {
    const name = ref.replace('#/components/schemas/', '');
    const schema = this.document.components.schemas[name];
    if (!schema) throw new Error(`No component ${name}`);
    return schema;
  }

  private arrayOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const items = this.of((schema['items'] ?? {}) as JsonSchema, undefined, depth + 1);
    const minLength = Number(schema['minItems'] ?? 0);
    const maxLength = Math.max(minLength, Math.min(Number(schema['maxItems'] ?? MAX_ITEMS), MAX_ITEMS));
    return schema['uniqueItems']
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  private objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema['required'] ?? []) as string[]);
    // An `anyOf` of `required` lists ("email or uid"): one branch's names become required.
    const alternatives = ((schema['anyOf'] ?? []) as JsonSchema[]).map((b) => (b['required'] ?? []) as string[]);
    // The required properties and a few optional ones, as a caller sends them (a patch touches some fields): with
    // every optional property at even odds, cross-field rules (`not`, `allOf`) would refuse most bodies.
    const record = (extra: string[]) => {
      const must = [...required, ...extra].filter((k) => k in properties);
      const optional = Object.keys(properties).filter((k) => !must.includes(k));
      return fc
        .subarray(optional, { maxLength: Math.min(MAX_OPTIONAL, optional.length) })
        .chain((chosen) =>
          fc.record(
            Object.fromEntries([...must, ...chosen].map((key) => [key, this.of(properties[key]!, key, depth + 1)])),
          ),
        );
    };
    const fixed = alternatives.length > 0 ? fc.oneof(...alternatives.map(record)) : record([]);
    const additional = schema['additionalProperties'];
    if (
      !additional ||
      typeof additional !== 'object' ||
      Object.keys(additional).length === 0 ||
      Object.keys(properties).length > 0
    ) {
      return fixed;
    }
    const names = (schema['propertyNames'] ?? {}) as JsonSchema;
    const keys = names['pattern']
      ? stringOf({ ...names, type: 'string' })
      : plainText(Number(names['minLength'] ?? 1), 12);
    const maxKeys = Math.min(Number(schema['maxProperties'] ?? MAX_ITEMS), MAX_ITEMS);
    return fc.dictionary(
      keys.filter((k) => k !== '__proto__'),
      this.of(additional as JsonSchema, undefined, depth + 1),
      { maxKeys },
    );
  }
}

function integerOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Number(schema['minimum'] ?? Number.MIN_SAFE_INTEGER);
  const max = Number(schema['maximum'] ?? Number.MAX_SAFE_INTEGER);
  const near = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, Math.max(min, -1000) + 2000) });
  // The whole range too, where it is wider than 32 bits (fc.integer's): a filter over a narrow range would spin.
  const wide = max - min > 2 ** 32 ? [fc.maxSafeInteger().filter((n) => n >= min && n <= max)] : [];
  return fc.oneof(near, fc.constantFrom(min, max), ...wide);
}

function numberOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Number(schema['minimum'] ?? -1e9);
  const max = Number(schema['maximum'] ?? 1e9);
  // Not fc.double: most doubles by bit pattern are below 1e-130 in magnitude, which the filter would then refuse.
  return fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((n) => n / 1000),
    fc.constantFrom(min, max, 0.5, 1e-130, -1e-130),
  );
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = Number(schema['minLength'] ?? 0);
  const maxLength = Number(schema['maxLength'] ?? 40);
  const short = Math.min(maxLength, minLength + 24);
  switch (schema['format']) {
    case 'date-time':
      return pastInstant.map((d) => d.toISOString());
    case 'date':
      return pastInstant.map((d) => d.toISOString().slice(0, 10));
    case 'uri':
      return fc.webPath().map((p) => `https://example.com${p.startsWith('/') ? p : `/${p}`}`);
    case 'email':
      return fc
        .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('example.com', 'mail.example.org'))
        .map(([l, d]) => `${l}@${d}`);
  }
  // "Not blank": text with a non-space character (a generated match could hold a `<%` tag, refused by description).
  if (schema['pattern'] === '\\S')
    return plainText(Math.max(minLength, 1), Math.max(short, 1)).filter((s) => s.trim() !== '');
  if (typeof schema['pattern'] === 'string') {
    return fc
      .stringMatching(new RegExp(schema['pattern']))
      .filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  return plainText(minLength, short);
}
