import * as z from './zod.js';

/**
 * A schema whose document says more than its parse checks: the PATCH of a contact is parsed as any object and then
 * validated row by row with the import's rules (bulk-row.ts), but callers should read those rules in the document.
 * The OpenAPI builder (shared/openapi/json-schema.ts) converts the registered schema in its place. The registered
 * schema must accept no more than the parse path does, so a document-valid body is never refused for its form.
 */
// `unknown`: zod's registry rewrites schema types inside its metadata type; the one reader casts it back.
const registry = z.registry<{ schema: unknown }>();

/** The schema the document shows in place of `schema`, if one was registered. */
export const documentationOf = (schema: z.ZodMiniType): z.ZodMiniType | undefined =>
  registry.get(schema)?.schema as z.ZodMiniType | undefined;

/** `schema`, documented as `documentation`. */
export function documentedAs<T extends z.ZodMiniType>(schema: T, documentation: z.ZodMiniType): T {
  registry.add(schema, { schema: documentation });
  return schema;
}
