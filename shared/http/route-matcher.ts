import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDefinition } from '../../functions/routes.js';
import { errorResponse } from './envelope.js';

/**
 * API Gateway HTTP API route selection, shared by the local server and the AWS fallback function (`$default` route):
 * `{name}` matches one path segment, `{name+}` the rest of the path; when several routes match, the one with more
 * literal segments wins (API Gateway's "most specific"). HEAD is served by a path's GET route (infra adds a HEAD route
 * for each). A path that exists with other methods is `method_not_allowed`, with every method some route of that path
 * would take (`Allow`).
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
  literalSegments: number;
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
    this.compiled = routes
      .map(compile)
      .sort((a, b) => b.literalSegments - a.literalSegments || b.route.path.length - a.route.path.length);
  }

  /** `path` is the part the routes are written for, still percent-encoded (e.g. `/client/contacts/a%40b.co`). */
  match(method: string, path: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowed = new Set<string>();
    for (const candidate of this.compiled) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      if (candidate.route.method !== wanted) {
        allowed.add(candidate.route.method);
        continue;
      }
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
    if (allowed.size === 0) return { kind: 'not_found' };
    if (allowed.has('GET')) allowed.add('HEAD');
    for (const extra of this.extraMethods) allowed.add(extra);
    return { kind: 'method_not_allowed', allow: [...allowed].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)) };
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
    this.api = new RouteMatcher(routes.filter((r) => !r.root), options.extraMethods);
    this.root = new RouteMatcher(routes.filter((r) => r.root), options.extraMethods);
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
    const item = { condition: 'not_found', key: 'route', error: `No route for ${method} ${path}` };
    return errorResponse(404, [item], 'Not Found', requestId);
  }
  const allow = match.allow.join(', ');
  const item = { condition: 'method_not_allowed', key: 'method', error: `${method} is not allowed on ${path}; allowed: ${allow}` };
  const reply = errorResponse(405, [item], 'Method Not Allowed', requestId);
  return { ...reply, headers: { ...reply.headers, allow } };
}
