import type { RouteDefinition } from '../functions/routes.js';

/**
 * API Gateway HTTP API route selection for the local server: `{name}` matches one path segment, `{name+}` the rest
 * of the path; when several routes match, the one with more literal segments wins (API Gateway's "most specific").
 */
export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'not_found' }
  /** A `%` sequence in a path parameter that does not decode. */
  | { kind: 'malformed'; parameter: string };

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
  literalSegments: number;
}

export class RouteMatcher {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.compiled = routes
      .map(compile)
      .sort((a, b) => b.literalSegments - a.literalSegments || b.route.path.length - a.route.path.length);
  }

  /** `path` is the part below the API base, still percent-encoded (e.g. `/client/contacts/a%40b.co`). */
  match(method: string, path: string): RouteMatch {
    for (const candidate of this.compiled) {
      if (candidate.route.method !== method) continue;
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const pathParameters: Record<string, string> = {};
      for (const [i, name] of candidate.names.entries()) {
        const raw = found[i + 1] ?? '';
        try {
          pathParameters[name] = decodeURIComponent(raw);
        } catch {
          return { kind: 'malformed', parameter: name };
        }
      }
      return { kind: 'matched', route: candidate.route, pathParameters };
    }
    return { kind: 'not_found' };
  }
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  let literalSegments = 0;
  const source = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy?.[1]) {
        names.push(greedy[1]);
        return '/(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        return '/([^/]+)';
      }
      literalSegments += 1;
      return `/${escapeRegExp(segment)}`;
    })
    .join('');
  return { route, pattern: new RegExp(`^${source || '/'}$`), names, literalSegments };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
