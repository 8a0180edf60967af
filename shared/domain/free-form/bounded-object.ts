import * as z from '../../validation/zod.js';
import { freeFormProblems, STORABLE_NUMBER_RULE, type ObjectBounds } from '../../validation/storable-value.js';

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

/** A JSON object schema (`z.record`) with the bounds checked; each error item's key names the offending member. */
export function boundedObject(bounds: ObjectBounds = FREE_FORM_BOUNDS) {
  return z
    .record(z.string(), z.unknown(), { error: 'Must be an object' })
    .check(
      z.superRefine((value, ctx) => {
        for (const problem of freeFormProblems(value, bounds)) {
          ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: { condition: problem.condition } });
        }
      }),
      // Keys are checked by the walk (one item each, at any level); the document states the top level's too.
      z.meta({ description: freeFormRule(bounds), propertyNames: { minLength: 1, maxLength: bounds.maxKeyLength } }),
    );
}
