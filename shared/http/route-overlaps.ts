import type { RouteDefinition } from './route-definition.js';

/**
 * Route paths that overlap: one request path matches both, e.g. `/client/contacts/bulk` and `/client/contacts/{id}`.
 * The shared router lets the more specific path decide (route-matcher.ts), but API Gateway picks a route per method:
 * `GET /client/contacts/bulk` reaches `GET /client/contacts/{id}` when the literal path has no GET route. So each
 * method the general path takes and the specific one lacks is a gap, which infra routes to the fallback function
 * (a 405 with the specific path's `Allow`), on AWS as locally.
 */
export interface RouteOverlap {
  /** The more specific path (a literal segment where the other has a parameter), API Gateway syntax. */
  specific: string;
  /** The path it would otherwise fall through to. */
  general: string;
  /** Methods of `general` that `specific` has no route for (HEAD where the general path has GET). */
  gaps: string[];
  /** Both are root routes (served outside the API base); routes are only compared with routes of the same base. */
  root: boolean;
}

type Segment = { kind: 'literal'; text: string } | { kind: 'param' } | { kind: 'greedy' };

const segmentsOf = (path: string): Segment[] =>
  path
    .split('/')
    .filter(Boolean)
    .map((s) =>
      /^\{\w+\+\}$/.test(s)
        ? { kind: 'greedy' }
        : /^\{\w+\}$/.test(s)
          ? { kind: 'param' }
          : { kind: 'literal', text: s },
    );

/**
 * Whether `specific` is strictly more specific than `general` and some request path matches both: segment by
 * segment, literals must be equal, and at the first segment where the kinds differ `specific` has the literal (or a
 * `{name}` against a `{name+}`).
 */
export function shadows(specific: string, general: string): boolean {
  const a = segmentsOf(specific);
  const b = segmentsOf(general);
  let decided = false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i];
    if (!y) return false;
    if (y.kind === 'greedy') return decided || x.kind !== 'greedy';
    if (x.kind === 'greedy') return false;
    if (x.kind === 'literal' && y.kind === 'literal') {
      if (x.text !== y.text) return false;
      continue;
    }
    if (x.kind !== y.kind && !decided) {
      if (x.kind !== 'literal') return false;
      decided = true;
    }
  }
  return decided && a.length === b.length;
}

/**
 * Every overlapping pair of paths of the table (each path compared with every other path under the same base), with
 * the methods the specific path lacks.
 */
export function routeOverlaps(routes: readonly RouteDefinition[]): RouteOverlap[] {
  const overlaps: RouteOverlap[] = [];
  for (const root of [false, true]) {
    const methods = new Map<string, Set<string>>();
    for (const route of routes.filter((r) => !!r.root === root)) {
      const set = methods.get(route.path) ?? new Set<string>();
      set.add(route.method);
      if (route.method === 'GET') set.add('HEAD');
      methods.set(route.path, set);
    }
    for (const [specific, own] of methods) {
      for (const [general, theirs] of methods) {
        if (specific === general || !shadows(specific, general)) continue;
        overlaps.push({ specific, general, gaps: [...theirs].filter((m) => !own.has(m)), root });
      }
    }
  }
  return overlaps;
}

/**
 * The (path, method) pairs API Gateway would send to a less specific route: infra routes them to the fallback.
 * A path shadowing several general paths gets each missing method once.
 */
export function fallbackRoutes(routes: readonly RouteDefinition[]): { path: string; method: string; root: boolean }[] {
  const seen = new Set<string>();
  const out: { path: string; method: string; root: boolean }[] = [];
  for (const { specific, gaps, root } of routeOverlaps(routes)) {
    for (const method of gaps) {
      const key = `${root} ${method} ${specific}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ path: specific, method, root });
    }
  }
  return out;
}
