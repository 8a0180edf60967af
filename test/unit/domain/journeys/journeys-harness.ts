import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import type { JourneyDefinition } from '../../../../shared/domain/journeys/definition/types.js';

/** The journeys' use cases over the memory stores, for a client on `plan`. */
export function journeysHarness(plan = 'starter', clientId = 7) {
  const stores = memoryStores();
  stores.clients.clients.set(clientId, {
    id: clientId,
    client_id: 'c-7',
    name: 'Acme',
    email: 'ops@acme.example',
    plan,
    status: 'active',
    api_key_id: 1,
    api_key_hash: 'h',
    api_key_masked: 'els_…abcd',
    api_key_enabled: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  } as never);
  return { stores, deps: stores, clientId };
}

/** A valid two-step journey: a keyed wait for the checkout, else a reminder (system template 3). */
export const cartDefinition = (): JourneyDefinition => ({
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 3, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

export const asDraft = (definition: unknown): Record<string, unknown> => definition as Record<string, unknown>;
