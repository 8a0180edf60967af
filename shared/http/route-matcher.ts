import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorItem } from '../errors.js';
import type { RouteDefinition } from './route-definition.js';
import { errorResponse } from './envelope.js';

/**
 * API Gateway HTTP API route selection, shared by the local server and the AWS fallback function (`$default` route):
 * `{name}` matches one path segment, `{name+}` the rest of the path. Of the route paths that match a request's path,
 * the most specific one decides (segment by segment from the left, a literal beats `{name}`, which beats `{name+}`):
 * a literal path such as `/client/contacts/bulk` never falls through to `/client/contacts/{id}`. If that
 * path has no route of the method, the answer is `method_not_allowed` with the methods of that path alone (`Allow`).
 * HEAD is served by a path's GET route (infra adds a HEAD route for each). On AWS, API Gateway would send a method the
 * literal path lacks to the `{id}` route; infra routes those methods to the fallback (route-overlaps.ts).
 */
export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' }
  /** A `%` sequence in a path parameter that does not decode. */
  | { kind: 'malformed'; parameter: string };

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
  /** Per segment: 0 literal, 1 `{name}`, 2 `{name+}` (lower is more specific). */
  kinds: number[];
}

/** The order methods are listed in `Allow`. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class RouteMatcher {
  private readonly compiled: CompiledRoute[];

  /** `extraMethods`: methods every known path also takes (OPTIONS when CORS preflights are answered). */
  constructor(
    routes: readonly RouteDefinition[],
    private readonly extraMethods: readonly string[] = [],
  ) {
    this.compiled = routes.map(compile).sort((a, b) => compareSpecificity(a.kinds, b.kinds));
  }

  /** `path` is the part the routes are written for, still percent-encoded (e.g. `/client/contacts/a%40b.co`). */
  match(method: string, path: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    // Sorted most specific first: the first route path that matches is the one that decides.
    const first = this.compiled.find((candidate) => candidate.pattern.test(path));
    if (!first) return { kind: 'not_found' };
    const samePath = this.compiled.filter((candidate) => candidate.route.path === first.route.path);
    const candidate = samePath.find((c) => c.route.method === wanted);
    if (candidate) {
      const found = candidate.pattern.exec(path)!;
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
    const allowed = new Set(samePath.map((c) => c.route.method as string));
    if (allowed.has('GET')) allowed.add('HEAD');
    for (const extra of this.extraMethods) allowed.add(extra);
    return {
      kind: 'method_not_allowed',
      allow: [...allowed].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)),
    };
  }
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const kinds: number[] = [];
  const source = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy?.[1]) {
        names.push(greedy[1]);
        kinds.push(2);
        return '/(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        kinds.push(1);
        return '/([^/]+)';
      }
      kinds.push(0);
      return `/${escapeRegExp(segment)}`;
    })
    .join('');
  return { route, pattern: new RegExp(`^${source || '/'}$`), names, kinds };
}

/**
 * Orders route paths most specific first: at the first segment where they differ in kind, a literal comes before
 * `{name}`, which comes before `{name+}`; then the longer path first.
 */
function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return b.length - a.length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The whole route table behind one API: routes below the API base (`/api/v1`) and root routes (the public links
 * `/u/…`, `/v/…`), matched on the request's full path as API Gateway does.
 */
export class Router {
  private readonly api: RouteMatcher;
  private readonly root: RouteMatcher;

  constructor(
    routes: readonly RouteDefinition[],
    private readonly options: { basePath: string; extraMethods?: readonly string[] },
  ) {
    this.api = new RouteMatcher(
      routes.filter((r) => !r.root),
      options.extraMethods,
    );
    this.root = new RouteMatcher(
      routes.filter((r) => r.root),
      options.extraMethods,
    );
  }

  /** `path` is the URL's path (no query), still percent-encoded. */
  match(method: string, path: string): RouteMatch {
    const { basePath } = this.options;
    const below = path === basePath ? '/' : path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
    return below === undefined ? this.root.match(method, path) : this.api.match(method, below);
  }
}

/** The envelope for a request no route takes: 404 for an unknown path, 405 with `Allow` for a known one. */
export function unmatchedResponse(
  match: Extract<RouteMatch, { kind: 'not_found' | 'method_not_allowed' }>,
  method: string,
  path: string,
  requestId: string,
): APIGatewayProxyStructuredResultV2 {
  if (match.kind === 'not_found') {
    const item: ErrorItem = { condition: 'not_found', key: 'route', error: `No route for ${method} ${path}` };
    return errorResponse(404, [item], 'Not Found', requestId);
  }
  const allow = match.allow.join(', ');
  const item: ErrorItem = {
    condition: 'method_not_allowed',
    key: 'method',
    error: `${method} is not allowed on ${path}; allowed: ${allow}`,
  };
  const reply = errorResponse(405, [item], 'Method Not Allowed', requestId);
  return { ...reply, headers: { ...reply.headers, allow } };
}
