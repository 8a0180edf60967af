import * as z from '../validation/zod.js';
import { FREE_FORM_VALUE_SCHEMA } from '../domain/free-form/bounded-object.js';
import { documentationOf } from '../validation/documented-as.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [key: string]: unknown };

const COMPONENT_REF = '#/components/schemas/';

/**
 * Components written as JSON Schema because zod cannot say them (a recursive value checked by a walk, not by nested
 * schemas); each is added to the document where a converted schema refers to it.
 */
const WRITTEN_COMPONENTS: Record<string, JsonSchema> = { FreeFormValue: FREE_FORM_VALUE_SCHEMA };
/**
 * Formats whose validation says all there is to say: zod's long regex for them is left out of the document. Not
 * `email` nor `date-time`/`date`: the format admits values the service refuses (quoted local parts; a lower-case
 * `t`, a leap second), so zod's `pattern` is the real rule; not `uri`, whose pattern is ours.
 */
const SELF_DESCRIBING_FORMATS = new Set(['uuid']);

/**
 * Turns zod schemas into the document's JSON Schemas with `z.toJSONSchema`: requests with `io: 'input'` (what a
 * caller sends, before transforms and defaults), responses with `io: 'output'`. A schema with a `.meta({ id })`
 * becomes one entry of `components.schemas`, referenced wherever it appears; two different schemas claiming the
 * same id are refused, so a name in the document always means one thing.
 */
export class SchemaCatalog {
  private readonly components = new Map<string, { schema: JsonSchema; text: string }>();

  /** The JSON Schema of `schema`, with its named parts moved to the components. */
  convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
    const documentation = documentationOf(schema);
    if (documentation) return this.convert(documentation, io);
    const override = io === 'input' ? tidyInput : tidy;
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override,
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>))
      this.add(id, pointRefs(def) as JsonSchema);
    const converted = pointRefs(rest) as JsonSchema;
    const text = JSON.stringify(converted);
    for (const [id, written] of Object.entries(WRITTEN_COMPONENTS)) {
      if (text.includes(`"${COMPONENT_REF}${id}"`)) this.add(id, written);
    }
    return converted;
  }

  /** `components.schemas`, by name. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.components.keys()].sort().map((id) => [id, this.components.get(id)!.schema]));
  }

  private add(id: string, schema: JsonSchema): void {
    const text = JSON.stringify(schema);
    const known = this.components.get(id);
    if (known && known.text !== text) {
      throw new Error(`Two different schemas are named "${id}" (.meta({ id })): give one of them another id`);
    }
    this.components.set(id, { schema, text });
  }
}

/**
 * `override` of z.toJSONSchema for responses: drops what only restates the type (an integer's safe-integer bounds,
 * regexes of formats). A `number`'s safe bounds stay: they are the storable-number rule (storable-value.ts).
 */
function tidy({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema['type'] === 'integer' && jsonSchema['minimum'] === Number.MIN_SAFE_INTEGER)
    delete jsonSchema['minimum'];
  if (jsonSchema['type'] === 'integer' && jsonSchema['maximum'] === Number.MAX_SAFE_INTEGER)
    delete jsonSchema['maximum'];
  tidyInput({ jsonSchema });
}

/**
 * For requests the safe-integer bounds stay: the validator refuses an integer beyond them (a 422), so the document
 * says so (a document-valid input is never refused for its form).
 */
function tidyInput({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (typeof jsonSchema['format'] === 'string' && SELF_DESCRIBING_FORMATS.has(jsonSchema['format']))
    delete jsonSchema['pattern'];
}

/** Rewrites zod's `#/$defs/<id>` references to the document's components. */
function pointRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
        ? COMPONENT_REF + child.slice('#/$defs/'.length)
        : pointRefs(child),
    ]),
  );
}
