import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import type { JourneyIndex } from '../../../../shared/domain/journeys/journey-records.js';
import { keyHashOf, matchWaits, runMarkersOf } from '../../../../shared/domain/runs/match-waits.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const index: JourneyIndex = {
  version: 1,
  journeys: [
    {
      id: 1000,
      name: 'Cart',
      status: 'live',
      live_version: 1,
      trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
      entry: 'wait_checkout',
      settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
      awaited_events: ['checkout_completed'],
      templates_in_use: [],
    },
  ],
};

const checkout = (payload: Record<string, unknown>, fields: Partial<EventRecord> = {}): EventRecord => ({
  id: 12,
  client_id: 7,
  type: 'checkout_completed',
  email: 'ann@example.com',
  auto_create_contact: false,
  ts: '2026-01-15T10:00:00.000Z',
  payload,
  mode: 'async',
  queue_status: 'queued',
  retry_count: 0,
  created_at: '2026-01-15T10:00:00.000Z',
  ...fields,
});

const contactWith = (markers: Record<string, unknown>, fields: Partial<ContactRecord> = {}) =>
  ({ ...contactRecord(fields), ...markers }) as ContactRecord;

const wait = (fields: Record<string, unknown> = {}) => ({
  j: 1000,
  v: 1,
  s: 'wait_checkout',
  q: 2,
  e: 'checkout_completed',
  k: keyHashOf('A-1'),
  ...fields,
});

describe('matchWaits', () => {
  it('finds the wait of the same type and key, with its marker', () => {
    // Prepare
    const contact = contactWith({ wait_5: wait(), wait_6: wait({ k: keyHashOf('B-2') }) });

    // Act
    const matched = matchWaits(contact, checkout({ cart_id: 'A-1' }), index);

    // Assess
    expect(matched).toEqual([{ runId: 5, marker: wait() }]);
  });

  it.each([
    ['another type', wait({ e: 'order_shipped' }), { cart_id: 'A-1' }],
    ['another key', wait(), { cart_id: 'B-2' }],
    ['no key on the event', wait(), {}],
    ['a journey gone from the index (its key path unknown)', wait({ j: 1001 }), { cart_id: 'A-1' }],
    [
      'conditions that do not hold',
      wait({ c: [{ on: 'event', path: 'amount', op: 'gt', value: 10 }] }),
      { cart_id: 'A-1', amount: 5 },
    ],
  ])('matches nothing for %s', (_, marker, payload) => {
    // Act
    const matched = matchWaits(contactWith({ wait_5: marker }), checkout(payload), index);

    // Assess
    expect(matched).toEqual([]);
  });

  it('matches a wait without a key on type and conditions alone (contact conditions read the contact)', () => {
    // Prepare
    const marker = wait({ c: [{ on: 'contact', field: 'first_name', op: 'eq', value: 'Ann' }] });
    delete (marker as { k?: string }).k;

    // Act
    const matched = matchWaits(contactWith({ wait_5: marker }), checkout({}), undefined);
    const other = matchWaits(contactWith({ wait_5: marker }, { first_name: 'Bob' }), checkout({}), undefined);

    // Assess
    expect(matched.map((m) => m.runId)).toEqual([5]);
    expect(other).toEqual([]);
  });

  it('hashes a numeric key value as its string, as the run was keyed', () => {
    // Act
    const matched = matchWaits(contactWith({ wait_5: wait({ k: keyHashOf('42') }) }), checkout({ cart_id: 42 }), index);

    // Assess
    expect(matched.map((m) => m.runId)).toEqual([5]);
  });
});

describe('runMarkersOf', () => {
  it('lists the run markers with their journey, seq and key hash, and ignores other attributes', () => {
    // Act
    const runs = runMarkersOf(
      contactWith({ run_7: { j: 1000, q: 1, k: 'ab' }, run_8: { j: 1001, q: 3 }, run_x: { j: 1 }, open_9: { w: 1 } }),
    );

    // Assess
    expect(runs).toEqual([
      { runId: 7, marker: { j: 1000, q: 1, k: 'ab' } },
      { runId: 8, marker: { j: 1001, q: 3 } },
    ]);
  });
});
