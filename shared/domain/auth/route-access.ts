import { forbidden } from '../../errors.js';
import type { Principal } from './authenticate.js';
import { tokenMatches } from './session-tokens.js';
import { ROLE_NAMES, roleGrants, type Permission } from '../users/roles.js';

/** Who may call a route: what it does as the roles see it, and whether only a dashboard session may. */
export interface RouteAccess {
  permission: Permission;
  /** An API key or JWT is refused (403): the route is about the dashboard's users, or mints credentials. */
  sessionOnly: boolean;
}

/** Routes that read with a POST (a search body, a preview): a viewer may call them. */
const POST_READS = new Set([
  '/client/email-templates/list',
  '/client/email-templates/{id}/render-preview',
  '/client/email-templates/{id}/html',
  '/client/segments/preview',
]);

/**
 * The one table of who may call what, by method and path below the API base (functions/routes.ts' `path`); every
 * authenticated route falls under one of its rules (test/unit/domain/auth/route-access.test.ts walks the route table).
 */
export function routeAccess(method: string, path: string): RouteAccess {
  const reads = method === 'GET' || method === 'HEAD' || POST_READS.has(path);
  if (path === '/auth/me') return { permission: 'read', sessionOnly: true };
  // Ending one's own session is open to every role.
  if (path === '/auth/sign-out') return { permission: 'read', sessionOnly: true };
  if (path === '/client/users' || path.startsWith('/client/users/'))
    return { permission: reads ? 'read' : 'users', sessionOnly: true };
  // Rotation keeps SPEC's contract for API keys and JWTs; the key list and its changes are the dashboard's.
  if (path === '/client/api-keys/rotate') return { permission: 'keys', sessionOnly: false };
  if (path === '/client/api-keys' || path.startsWith('/client/api-keys/'))
    return { permission: 'keys', sessionOnly: true };
  if (reads) return { permission: 'read', sessionOnly: false };
  // What starts, stops or changes mail at volume is a manager's, as the settings' enabled workflows are; drafts are
  // content.
  if (/^\/client\/journeys\/\{id\}\/(publish|pause|resume|archive)$/.test(path))
    return { permission: 'manage', sessionOnly: false };
  // A broadcast's schedule, resume, cancel, resend and retry-failed send or stop mail to a whole audience; its draft, test send and pause
  // (stopping is always allowed) are content.
  if (/^\/client\/broadcasts\/\{id\}\/(schedule|resume|cancel|resend|retry-failed)$/.test(path))
    return { permission: 'manage', sessionOnly: false };
  if (
    path === '/client/settings' ||
    path === '/client/webhooks' ||
    path.startsWith('/client/webhooks/') ||
    path === '/client/domains' ||
    path.startsWith('/client/domains/')
  ) {
    return { permission: 'manage', sessionOnly: false };
  }
  return { permission: 'content', sessionOnly: false };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestFacts {
  method: string;
  /** The route's path below the API base, `/client/users/{id}`. */
  path: string;
  /** `X-CSRF-Token` as sent, and the `els_csrf` cookie. */
  csrfHeader: string | undefined;
  csrfCookie: string | undefined;
}

/**
 * Refuses (403 `forbidden`) what the principal may not do: a session-only route with an API key or JWT, a role without
 * the route's permission, and a state-changing session request without the double-submitted CSRF token — the header
 * must equal the cookie and be the session's own token (OWASP CSRF Prevention cheat sheet: signed double submit).
 */
export function authorize(principal: Principal, request: RequestFacts): void {
  const access = routeAccess(request.method, request.path);
  const session = principal.session;
  if (!session) {
    if (access.sessionOnly)
      throw forbidden(
        'authorization',
        'Only a signed-in dashboard user may call this route; an API key or token may not',
      );
    return;
  }
  if (!SAFE_METHODS.has(request.method)) {
    const { csrfHeader, csrfCookie } = request;
    if (!csrfHeader || !csrfCookie || csrfHeader !== csrfCookie || !tokenMatches(csrfHeader, session.csrf_hash)) {
      throw forbidden('csrf', 'A change made with a session needs the X-CSRF-Token header echoing the els_csrf cookie');
    }
  }
  if (!roleGrants(session.role, access.permission)) {
    throw forbidden('role', `The ${ROLE_NAMES[session.role]} role may not do this`);
  }
}
