/**
 * One text per meaning, for ids that must not change when a client rewrites the same thing differently: object members
 * in code-point order at every depth, absent members dropped (as JSON drops `undefined`), arrays in their order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? 'null';
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => [key, sorted(record[key])]),
    );
  }
  return value;
}

/**
 * An event counter's canonical text: its type and its conditions, the conditions in the order of their own canonical
 * text (they are all joined by "and", so neither their order nor a repeat says anything) and an empty list for none.
 */
export function canonicalSpec(type: string, conditions: readonly unknown[] | undefined): string {
  const parts = [...new Set((conditions ?? []).map(canonicalJson))].sort();
  return `{"conditions":[${parts.join(',')}],"type":${JSON.stringify(type)}}`;
}
