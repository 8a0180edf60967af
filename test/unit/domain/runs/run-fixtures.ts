import type { JourneyDefinition, JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import type {
  IndexedJourney,
  JourneyIndex,
  JourneyVersionRecord,
} from '../../../../shared/domain/journeys/journey-records.js';
import type { RunRecord } from '../../../../shared/domain/runs/run-record.js';

export const RUN_CLIENT = 7;
export const JOURNEY_ID = 1000;
export const T0 = '2026-01-15T10:00:00.000Z';

/** A definition whose settings are a marketing journey's without a topic; `steps[0]` is the entry. */
export function definitionOf(steps: JourneyStep[], settings: Partial<JourneyDefinition['settings']> = {}) {
  return {
    trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
    entry: steps[0]!.id,
    steps,
    settings: {
      category: 'marketing',
      topic_id: null,
      critical: false,
      exit_events: [],
      conversion_window_days: 7,
      ...settings,
    },
  } satisfies JourneyDefinition as JourneyDefinition;
}

export function versionOf(
  definition: JourneyDefinition,
  version = 1,
  moves: JourneyVersionRecord['moves'] = {},
): JourneyVersionRecord {
  return { client_id: RUN_CLIENT, journey_id: JOURNEY_ID, version, definition, moves, published_at: T0 };
}

export function indexedOf(definition: JourneyDefinition, fields: Partial<IndexedJourney> = {}): IndexedJourney {
  return {
    id: JOURNEY_ID,
    name: 'Cart reminder',
    status: 'live',
    live_version: 1,
    trigger: definition.trigger,
    entry: definition.entry,
    settings: definition.settings,
    awaited_events: definition.steps.flatMap((s) => (s.type === 'wait_for_event' ? [s.event] : [])),
    templates_in_use: definition.steps.flatMap((s) => (s.type === 'send' ? [s.template_id] : [])),
    ...fields,
  };
}

export const indexOf = (...journeys: IndexedJourney[]): JourneyIndex => ({ version: 1, journeys });

/** A run as event processing starts it: active, seq 1, at the entry, due now. */
export function runRecord(fields: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 4242,
    client_id: RUN_CLIENT,
    journey_id: JOURNEY_ID,
    version: 1,
    contact_id: 100,
    event_id: 9001,
    key_hash: 'ab'.repeat(32),
    key_value: 'cart-1',
    status: 'active',
    step_id: 'start',
    seq: 1,
    step_entered_at: T0,
    due_at: T0,
    sends: {},
    branches: {},
    arms: {},
    path: [],
    event: { type: 'cart_abandoned', ts: T0, payload: { cart_id: 'cart-1', total: 120 } },
    created_at: T0,
    updated_at: T0,
    ...fields,
  };
}
