import type { IndexedJourney, JourneyIndex } from '../../../../shared/domain/journeys/journey-records.js';
import type { RunRecord, WaitMarker } from '../../../../shared/domain/runs/run-record.js';
import { keyHashOf } from '../../../../shared/domain/runs/match-waits.js';
import { CLIENT_ID, NOW, type EngineHarness } from '../engine/engine-harness.js';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';

/** The cart journey as the index holds it: cart_abandoned keyed by cart_id, waiting for checkout_completed. */
export const cartJourney = (fields: Partial<IndexedJourney> = {}): IndexedJourney => ({
  id: 1000,
  name: 'Cart reminder',
  status: 'live',
  live_version: 3,
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'once' } },
  entry: 'wait_checkout',
  settings: {
    category: 'marketing',
    topic_id: null,
    critical: false,
    exit_events: ['account_closed'],
    conversion_window_days: 7,
  },
  awaited_events: ['checkout_completed'],
  templates_in_use: [],
  ...fields,
});

export function publishIndex(h: EngineHarness, ...journeys: IndexedJourney[]): void {
  const index: JourneyIndex = { version: 1, journeys };
  h.stores.journeys.indexes.set(CLIENT_ID, index);
}

const attributes = (contact: object) => contact as Record<string, unknown>;

/**
 * A run as advance-runs leaves it in a wait_for_event: status waiting at `seq`, due at its timeout, its contact holding
 * `run_<id>` and `wait_<id>` (keyed by the cart) and `waits_v` raised.
 */
export function seedWaitingRun(
  h: EngineHarness,
  contactId: number,
  cartId: string,
  fields: { runId?: number; seq?: number; timeoutAt?: string; journeyId?: number; conditions?: unknown[] } = {},
): RunRecord {
  const runId = fields.runId ?? 5000 + Math.floor(Math.random() * 1000);
  const seq = fields.seq ?? 2;
  const journeyId = fields.journeyId ?? 1000;
  const timeoutAt = fields.timeoutAt ?? '2026-01-15T14:00:00.000Z';
  const run: RunRecord = {
    id: runId,
    client_id: CLIENT_ID,
    journey_id: journeyId,
    version: 3,
    contact_id: contactId,
    event_id: 1,
    key_hash: keyHashOf(cartId),
    key_value: cartId,
    status: 'waiting',
    step_id: 'wait_checkout',
    seq,
    step_entered_at: NOW,
    due_at: timeoutAt,
    wait: { kind: 'wait_for_event', event: 'checkout_completed', until: timeoutAt },
    sends: {},
    branches: {},
    arms: {},
    path: [],
    event: { type: 'cart_abandoned', ts: NOW, payload: { cart_id: cartId } },
    created_at: NOW,
    updated_at: NOW,
  };
  h.stores.processing.data.runs.set(clientKey(CLIENT_ID, runId), run);
  h.stores.processing.data.runLocks.set(keys.runLock(CLIENT_ID, journeyId, contactId, keyHashOf(cartId)).pk, {
    run_id: runId,
    active: true,
    entered_at: NOW,
  });
  const contact = h.stores.contacts.contacts.get(clientKey(CLIENT_ID, contactId))!;
  const marker: WaitMarker = {
    j: journeyId,
    v: 3,
    s: 'wait_checkout',
    q: seq,
    e: 'checkout_completed',
    k: keyHashOf(cartId),
    t: timeoutAt,
    ...(fields.conditions ? { c: fields.conditions } : {}),
  };
  attributes(contact)[`run_${runId}`] = { j: journeyId, q: seq, k: keyHashOf(cartId) };
  attributes(contact)[`wait_${runId}`] = marker;
  attributes(contact)['waits_v'] = ((attributes(contact)['waits_v'] as number | undefined) ?? 0) + 1;
  return run;
}
