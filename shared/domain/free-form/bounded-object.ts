import * as z from '../../validation/zod.js';

/**
 * A free-form JSON object a caller may send (template `vars`, event `metadata`): bounded in depth, key length and
 * total size at the schema, so nothing downstream (deep merges, renderers, the 400 KB item limit) meets an object
 * it cannot handle. The walk is iterative: a 10 000-level object is refused, never a stack overflow.
 */
export interface ObjectBounds {
  /** Levels of nested objects/arrays below the object itself. */
  maxDepth: number;
  /** UTF-8 bytes of the object as JSON. */
  maxBytes: number;
  /** Characters of one key. */
  maxKeyLength: number;
}

export const FREE_FORM_BOUNDS: ObjectBounds = { maxDepth: 8, maxBytes: 32_768, maxKeyLength: 128 };

type Violation = { path: (string | number)[]; condition: 'max' | 'format'; message: string };

/** The first bound the value breaks, with the path of the offending key; undefined when it is within bounds. */
export function findBoundViolation(value: unknown, bounds: ObjectBounds): Violation | undefined {
  const stack: { node: unknown; path: (string | number)[]; depth: number }[] = [{ node: value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > bounds.maxDepth) {
      return { path, condition: 'max', message: `Must not nest objects or arrays more than ${bounds.maxDepth} levels deep` };
    }
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (typeof key === 'string') {
        if (key.length > bounds.maxKeyLength) {
          return { path: [...path, key.slice(0, 40)], condition: 'max', message: `Keys must be at most ${bounds.maxKeyLength} characters` };
        }
        // JSON.parse makes `__proto__` an own key; merged into a plain object it would replace the prototype.
        if (key === '__proto__') return { path: [...path, key], condition: 'format', message: 'The key __proto__ is not allowed' };
      }
      stack.push({ node: child, path: [...path, key], depth: depth + 1 });
    }
  }
  // Depth is bounded by now, so stringifying cannot overflow the stack.
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > bounds.maxBytes) return { path: [], condition: 'max', message: `Must be at most ${bounds.maxBytes} bytes as JSON` };
  return undefined;
}

/** A JSON object schema (`z.record`) with the bounds checked; the error item's key names the offending member. */
export function boundedObject(bounds: ObjectBounds = FREE_FORM_BOUNDS) {
  return z.record(z.string(), z.unknown(), { error: 'Must be an object' }).check(
    z.superRefine((value, ctx) => {
      const violation = findBoundViolation(value, bounds);
      if (violation) {
        ctx.addIssue({ code: 'custom', path: violation.path, message: violation.message, params: { condition: violation.condition } });
      }
    }),
  );
}
