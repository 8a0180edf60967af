import type { Clock } from '../../platform.js';
import type { ClientStore } from '../clients/client-store.js';
import type { RateLimitOverride } from './rate-policy.js';

/** The highest override an operator may set: well within what one counter item absorbs (1 000 writes/s). */
export const MAX_REQUESTS_PER_SECOND = 1000;

/**
 * The operator sets (or, with `undefined`, removes) a client's override of its plan's rate limits. It applies within
 * the authentication cache's lifetime (≤ 60 s) on every container, at once on the one that wrote it only after that.
 */
export async function setClientRateLimits(
  deps: { clients: ClientStore; clock: Clock },
  clientId: number,
  override: RateLimitOverride | undefined,
): Promise<void> {
  for (const [name, value] of Object.entries(override ?? {})) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_REQUESTS_PER_SECOND)) {
      throw new RangeError(`${name} must be an integer from 1 to ${MAX_REQUESTS_PER_SECOND}, got ${value}`);
    }
  }
  const client = await deps.clients.get(clientId);
  if (!client) throw new Error(`client ${clientId} not found`);
  const empty = !override || Object.values(override).every((v) => v === undefined);
  await deps.clients.setRateLimits(clientId, empty ? undefined : override, deps.clock.now().toISOString());
}
