import { forbidden } from '../../errors.js';
import type { Principal } from './authenticate.js';
import type { SessionRecord } from './session-store.js';

/** The session of a session-only route's principal (route-access.ts refuses the others before the route runs). */
export function sessionOf(principal: Principal): SessionRecord {
  if (!principal.session) throw forbidden('authorization', 'Only a signed-in dashboard user may call this route');
  return principal.session;
}
