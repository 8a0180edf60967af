import * as z from './zod.js';
import { issueCondition } from './issue-items.js';

/**
 * What the store can hold of a caller's JSON: the one rule for every number and every free-form object of every
 * input. DynamoDB keeps numbers of up to 38 significant digits with a magnitude from 1e-130 to 1e126,
 * and no empty key in a map; the SDK's document client refuses, before sending, any number beyond
 * ±Number.MAX_SAFE_INTEGER (beyond it a JSON number has already lost digits in JSON.parse). A JavaScript number
 * never has more than 17 significant digits, so the rule is: finite, at most 2^53 − 1 in magnitude, and 0 or at
 * least 1e-130 in magnitude. Checked at the schema, a value the store would refuse is a 422 naming its field, never
 * a 500 from the write.
 */
export const MAX_STORABLE_MAGNITUDE = Number.MAX_SAFE_INTEGER;
export const MIN_STORABLE_MAGNITUDE = 1e-130;

/** The rule in words, for the document's descriptions. */
export const STORABLE_NUMBER_RULE = `at most ${MAX_STORABLE_MAGNITUDE} (2^53 − 1) in magnitude, and 0 or at least ${MIN_STORABLE_MAGNITUDE} in magnitude (what the store keeps exactly)`;

export interface ValueProblem {
  path: (string | number)[];
  condition: 'max' | 'min' | 'format' | 'type';
  message: string;
}

/** Why the store cannot hold this number; undefined when it can. */
export function numberProblem(value: number): Omit<ValueProblem, 'path'> | undefined {
  if (!Number.isFinite(value)) return { condition: 'type', message: 'Must be a finite number' };
  const magnitude = Math.abs(value);
  if (magnitude > MAX_STORABLE_MAGNITUDE) {
    return { condition: 'max', message: `Must be at most ${MAX_STORABLE_MAGNITUDE} (2^53 − 1) in magnitude` };
  }
  if (magnitude !== 0 && magnitude < MIN_STORABLE_MAGNITUDE) {
    return { condition: 'min', message: `Must be 0 or at least ${MIN_STORABLE_MAGNITUDE} in magnitude` };
  }
  return undefined;
}

/** A JSON number the store holds exactly as parsed (see numberProblem); the bounds appear in the document. */
export function storableNumber(typeError = 'Must be a number') {
  return z.number({ error: typeError }).check(
    // No `abort`: inside a union (custom field values) an aborted check would hide this message behind the union's.
    z.gte(-MAX_STORABLE_MAGNITUDE, `Must be at least -${MAX_STORABLE_MAGNITUDE} (−(2^53 − 1))`),
    z.lte(MAX_STORABLE_MAGNITUDE, `Must be at most ${MAX_STORABLE_MAGNITUDE} (2^53 − 1)`),
    z.refine((v: number) => v === 0 || Math.abs(v) >= MIN_STORABLE_MAGNITUDE || Math.abs(v) > MAX_STORABLE_MAGNITUDE, {
      message: `Must be 0 or at least ${MIN_STORABLE_MAGNITUDE} in magnitude`,
      params: issueCondition('min'),
    }),
    z.meta({ description: `A number ${STORABLE_NUMBER_RULE}`, not: TOO_SMALL_MAGNITUDE }),
  );
}

/** JSON Schema of "a non-zero number below 1e-130 in magnitude", for the documents' `not`. */
export const TOO_SMALL_MAGNITUDE = {
  exclusiveMinimum: -MIN_STORABLE_MAGNITUDE,
  exclusiveMaximum: MIN_STORABLE_MAGNITUDE,
  not: { const: 0 },
} as const;

/** Bounds of a free-form JSON object (template `vars`, event `metadata`). */
export interface ObjectBounds {
  /** Levels of nested objects/arrays below the object itself. */
  maxDepth: number;
  /** UTF-8 bytes of the object as JSON. */
  maxBytes: number;
  /** Characters of one key. */
  maxKeyLength: number;
}

/** Problems reported for one object at most: enough to fix a batch of values, bounded for a hostile one. */
const MAX_PROBLEMS = 20;

/**
 * Every problem of a free-form value, each with the path of the offending member: a number the store cannot hold,
 * an empty, over-long or `__proto__` key, nesting beyond `maxDepth`, then (when nothing else is wrong) a size beyond
 * `maxBytes`. The walk is iterative: a 10 000-level object is refused, never a stack overflow.
 */
export function freeFormProblems(value: unknown, bounds: ObjectBounds): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const stack: { node: unknown; path: (string | number)[]; depth: number }[] = [{ node: value, path: [], depth: 0 }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === 'number') {
      const problem = numberProblem(node);
      if (problem) problems.push({ path, ...problem });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > bounds.maxDepth) {
      problems.push({
        path,
        condition: 'max',
        message: `Must not nest objects or arrays more than ${bounds.maxDepth} levels deep`,
      });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : Object.entries(node);
    // Reversed onto the stack, so members are visited (and problems reported) in document order.
    for (const [key, child] of entries.reverse()) {
      if (typeof key === 'string') {
        const keyProblem = keyProblemOf(key, bounds);
        if (keyProblem) {
          // An empty key is named by the object holding it: `metadata.` would read as a typo.
          problems.push({ path: key === '' ? path : [...path, key.slice(0, 40)], ...keyProblem });
          continue;
        }
      }
      stack.push({ node: child, path: [...path, key], depth: depth + 1 });
    }
  }
  if (problems.length > 0) return problems;
  // Depth is bounded by now, so stringifying cannot overflow the stack.
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > bounds.maxBytes)
    return [{ path: [], condition: 'max', message: `Must be at most ${bounds.maxBytes} bytes as JSON` }];
  return [];
}

function keyProblemOf(key: string, bounds: ObjectBounds): Omit<ValueProblem, 'path'> | undefined {
  // DynamoDB refuses an empty key in a map.
  if (key === '') return { condition: 'min', message: 'Must not have an empty key' };
  if (key.length > bounds.maxKeyLength)
    return { condition: 'max', message: `Keys must be at most ${bounds.maxKeyLength} characters` };
  // JSON.parse makes `__proto__` an own key; merged into a plain object it would replace the prototype.
  if (key === '__proto__') return { condition: 'format', message: 'The key __proto__ is not allowed' };
  return undefined;
}
