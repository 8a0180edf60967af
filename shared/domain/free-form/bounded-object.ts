import * as z from '../../validation/zod.js';
import {
  freeFormProblems,
  MAX_STORABLE_MAGNITUDE,
  STORABLE_NUMBER_RULE,
  TOO_SMALL_MAGNITUDE,
  type ObjectBounds,
} from '../../validation/storable-value.js';
import { issueCondition } from '../../validation/issue-items.js';

/**
 * A free-form JSON object a caller may send (template `vars`, event `metadata`): bounded in depth, key length and
 * total size, its keys non-empty and its numbers storable (shared/validation/storable-value.ts), so nothing
 * downstream (deep merges, renderers, the store's number range, the 400 KB item limit) meets a value it cannot
 * handle.
 */
export type { ObjectBounds } from '../../validation/storable-value.js';

export const FREE_FORM_BOUNDS: ObjectBounds = { maxDepth: 8, maxBytes: 32_768, maxKeyLength: 128 };

/** The bounds in words, for the document (JSON Schema cannot say depth, size or the number rule at every level). */
export const freeFormRule = (bounds: ObjectBounds): string =>
  `A JSON object of at most ${bounds.maxBytes} bytes, nesting objects and arrays at most ${bounds.maxDepth} levels deep; ` +
  `every key (at any level) is 1 to ${bounds.maxKeyLength} characters and not \`__proto__\`; every number (at any level) is ${STORABLE_NUMBER_RULE}.`;

/** Where the document finds the value schema of free-form objects (FREE_FORM_VALUE_SCHEMA), at any level. */
export const FREE_FORM_VALUE_REF = '#/components/schemas/FreeFormValue';

/** The keys of a free-form object, as JSON Schema says them. */
const keySchema = (bounds: ObjectBounds) => ({
  minLength: 1,
  maxLength: bounds.maxKeyLength,
  not: { const: '__proto__' },
});

/**
 * A member of a free-form object as JSON Schema (recursive, so a component the document adds where it is referenced):
 * what JSON Schema can say of the bounds at every level — key length, `__proto__`, the number rule. Depth and size it
 * cannot say; the object's description does.
 */
export const FREE_FORM_VALUE_SCHEMA = {
  description: 'A member of a free-form object: any JSON value, its keys and numbers within the bounds at every level.',
  anyOf: [
    // No string can be longer than the whole object may be.
    { type: 'string', maxLength: FREE_FORM_BOUNDS.maxBytes },
    { type: 'number', minimum: -MAX_STORABLE_MAGNITUDE, maximum: MAX_STORABLE_MAGNITUDE, not: TOO_SMALL_MAGNITUDE },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'array', items: { $ref: FREE_FORM_VALUE_REF } },
    { type: 'object', propertyNames: keySchema(FREE_FORM_BOUNDS), additionalProperties: { $ref: FREE_FORM_VALUE_REF } },
  ],
};

/** A JSON object schema (`z.record`) with the bounds checked; each error item's key names the offending member. */
export function boundedObject(bounds: ObjectBounds = FREE_FORM_BOUNDS) {
  return z.record(z.string(), z.unknown(), { error: 'Must be an object' }).check(
    z.superRefine((value, ctx) => {
      for (const problem of freeFormProblems(value, bounds)) {
        ctx.addIssue({
          code: 'custom',
          path: problem.path,
          message: problem.message,
          params: issueCondition(problem.condition),
        });
      }
    }),
    // Checked by the walk (one item per problem, at any level); the document states what JSON Schema can.
    z.meta({
      description: freeFormRule(bounds),
      propertyNames: keySchema(bounds),
      additionalProperties: { $ref: FREE_FORM_VALUE_REF },
    }),
  );
}
