import type { RouteDefinition } from '../shared/http/route-definition.js';
import { constructIdOf } from './node-function.js';

/**
 * The areas of the API, each built as a nested stack of its own (infra/route-group-stack.ts), by the path families
 * they hold: the first segment of a route's path, or the second under `/client` (`/client/contacts/{id}` is
 * `contacts`). A family no area lists becomes an area of its own, named after it (`/client/segments` →
 * `SegmentsRoutes`), so adding a route to functions/routes.ts never needs an edit here; list a family to put it
 * beside its kin. Each area stays far under a stack's budget (docs/stacks.md).
 */
export const ROUTE_AREAS: Readonly<Record<string, readonly string[]>> = {
  Account: ['auth', 'api-keys', 'users', 'settings', 'domains'],
  Contacts: ['contacts', 'topics'],
  Messaging: ['email-templates', 'workflows'],
  Activity: ['events', 'executions', 'sent-emails', 'stats', 'webhooks'],
  Public: ['health', 'openapi.json', 'docs', 'app', 'u', 'v'],
};

/** `/client/contacts/{id}` → `contacts`; `/u/{token}` → `u`. */
export function pathFamilyOf(route: RouteDefinition): string {
  const segments = route.path.split('/').filter((segment) => segment !== '');
  const family = segments[0] === 'client' ? segments[1] : segments[0];
  if (!family) throw new Error(`${route.handler}: the path "${route.path}" has no segment to group it by`);
  return family;
}

/** The construct id of the nested stack that holds the route: `<Area>Routes`. */
export function routeGroupOf(route: RouteDefinition): string {
  const family = pathFamilyOf(route);
  const area = Object.entries(ROUTE_AREAS).find(([, families]) => families.includes(family))?.[0];
  return `${area ?? constructIdOf(family)}Routes`;
}

/** The routes by the stack that holds them, in the order of the route table. */
export function groupRoutes(routes: readonly RouteDefinition[]): Map<string, RouteDefinition[]> {
  const groups = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    const group = routeGroupOf(route);
    groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  return groups;
}
