import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import type { IndexedJourney } from '../../../../shared/domain/journeys/journey-records.js';
import { keyHashOf } from '../../../../shared/domain/runs/match-waits.js';
import { LOCK_GRACE_DAYS, planEntries } from '../../../../shared/domain/runs/plan-entries.js';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const NOW = new Date('2026-01-15T10:00:00.000Z');

const event = (fields: Partial<EventRecord> = {}, payload: Record<string, unknown> = {}): EventRecord => ({
  id: 11,
  client_id: 7,
  type: 'cart_abandoned',
  email: 'ann@example.com',
  auto_create_contact: false,
  ts: '2026-01-15T09:59:00.000Z',
  payload: { type: 'cart_abandoned', ...payload },
  mode: 'async',
  queue_status: 'queued',
  retry_count: 0,
  created_at: '2026-01-15T09:59:00.000Z',
  ...fields,
});

const journey = (id: number, fields: Partial<IndexedJourney> = {}): IndexedJourney => ({
  id,
  name: `J${id}`,
  status: 'live',
  live_version: 2,
  trigger: { event: 'cart_abandoned', reentry: { mode: 'always' } },
  entry: 'first',
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
  awaited_events: [],
  templates_in_use: [],
  ...fields,
});

const withRuns = (n: number): ContactRecord => {
  const contact = contactRecord() as ContactRecord & Record<string, unknown>;
  for (let i = 0; i < n; i += 1) contact[`run_${100 + i}`] = { j: 2000, q: 1 };
  return contact;
};

describe('planEntries', () => {
  it('plans a run at the entry of the live version, due now, keyed by the trigger key, with its lock', () => {
    // Prepare
    const j = journey(1000, { trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'once' } } });

    // Act
    const planned = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [j] } },
      event({}, { cart_id: 77 }),
      NOW,
    );

    // Assess
    expect(planned.refused).toEqual([]);
    expect(planned.runs).toEqual([
      expect.objectContaining({
        journey_id: 1000,
        version: 2,
        contact_id: 42,
        event_id: 11,
        key_hash: keyHashOf('77'),
        key_value: '77',
        status: 'active',
        step_id: 'first',
        seq: 1,
        due_at: NOW.toISOString(),
        event: {
          type: 'cart_abandoned',
          ts: '2026-01-15T09:59:00.000Z',
          payload: { type: 'cart_abandoned', cart_id: 77 },
        },
      }),
    ]);
    expect(planned.locks).toEqual([
      {
        journeyId: 1000,
        contactId: 42,
        keyHash: keyHashOf(77),
        runId: planned.runs[0]!.id,
        reentry: 'once',
        enteredAt: NOW.toISOString(),
      },
    ]);
  });

  it('hashes the key as a string (sha256 hex) and keeps the value only up to 200 characters', () => {
    // Prepare
    const j = journey(1000, { trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'once' } } });
    const long = 'x'.repeat(JOURNEY_LIMITS.keyValueChars + 1);

    // Act
    const planned = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [j] } },
      event({}, { cart_id: long }),
      NOW,
    );

    // Assess
    expect(planned.runs[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(planned.runs[0]!.key_hash).toBe(keyHashOf(long));
    expect(planned.runs[0]).not.toHaveProperty('key_value');
  });

  it('gives an every_days lock its cutoff and its TTL', () => {
    // Prepare
    const j = journey(1000, { trigger: { event: 'cart_abandoned', reentry: { mode: 'every_days', days: 7 } } });

    // Act
    const { locks } = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [j] } },
      event(),
      NOW,
    );

    // Assess
    expect(locks[0]).toMatchObject({
      reentry: 'every_days',
      cutoff: '2026-01-08T10:00:00.000Z',
      expiresAt: Date.parse('2026-01-22T10:00:00.000Z') / 1000 + LOCK_GRACE_DAYS * 86_400,
    });
    expect(locks[0]).not.toHaveProperty('keyHash');
  });

  it('copies the payload into the run only while it is at most 4 KB', () => {
    // Prepare
    const j = journey(1000);

    // Act
    const { runs } = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [j] } },
      event({}, { blob: 'y'.repeat(5000) }),
      NOW,
    );

    // Assess
    expect(runs[0]!.event).toEqual({ type: 'cart_abandoned', ts: '2026-01-15T09:59:00.000Z' });
  });

  it('starts runs of at most the per-trigger limit of live journeys, and none of paused ones', () => {
    // Prepare
    const journeys = [journey(999, { status: 'paused' }), ...Array.from({ length: 12 }, (_, i) => journey(1000 + i))];

    // Act
    const planned = planEntries({ contact: contactRecord(), journeyIndex: { version: 1, journeys } }, event(), NOW);

    // Assess
    expect(planned.runs.map((r) => r.journey_id)).toEqual(
      Array.from({ length: JOURNEY_LIMITS.liveJourneysPerTrigger }, (_, i) => 1000 + i),
    );
    expect(new Set(planned.runs.map((r) => r.id)).size).toBe(planned.runs.length);
  });

  it('stops at the runs-per-contact limit, counting the runs it plans', () => {
    // Prepare: 18 runs in flight, three journeys triggered.
    const journeys = [journey(1000), journey(1001), journey(1002)];

    // Act
    const planned = planEntries({ contact: withRuns(18), journeyIndex: { version: 1, journeys } }, event(), NOW);

    // Assess
    expect(planned.runs.map((r) => r.journey_id)).toEqual([1000, 1001]);
    expect(planned.refused).toEqual([{ journey_id: 1002, outcome: 'runs_limit' }]);
  });

  it.each([
    ['the key value missing', { key: 'cart_id' }, {}],
    ['the key value null', { key: 'cart_id' }, { cart_id: null }],
    [
      'conditions that do not hold',
      { conditions: [{ on: 'event' as const, path: 'plan', op: 'eq' as const, value: 'pro' }] },
      {},
    ],
  ])('refuses `conditions` with %s', (_, trigger, payload) => {
    // Prepare
    const j = journey(1000, { trigger: { event: 'cart_abandoned', reentry: { mode: 'always' }, ...trigger } });

    // Act
    const planned = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [j] } },
      event({}, payload),
      NOW,
    );

    // Assess
    expect(planned).toEqual({ runs: [], locks: [], refused: [{ journey_id: 1000, outcome: 'conditions' }] });
  });

  it('keeps an outcome an earlier try of the commit found, without planning that run again', () => {
    // Act
    const planned = planEntries(
      { contact: contactRecord(), journeyIndex: { version: 1, journeys: [journey(1000), journey(1001)] } },
      event(),
      NOW,
      new Map([[1000, 'in_flight' as const]]),
    );

    // Assess
    expect(planned.runs.map((r) => r.journey_id)).toEqual([1001]);
    expect(planned.refused).toEqual([{ journey_id: 1000, outcome: 'in_flight' }]);
  });

  it('plans nothing without an index, a contact, or for another event type', () => {
    // Act
    const none = [
      planEntries({ contact: contactRecord() }, event(), NOW),
      planEntries({ journeyIndex: { version: 1, journeys: [journey(1000)] } }, event(), NOW),
      planEntries(
        { contact: contactRecord(), journeyIndex: { version: 1, journeys: [journey(1000)] } },
        event({ type: 'signup' }),
        NOW,
      ),
    ];

    // Assess
    for (const planned of none) expect(planned).toEqual({ runs: [], locks: [], refused: [] });
  });
});
