import { describe, expect, it } from 'vitest';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import { clientKey, MemoryEngineData } from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryMembershipStore } from '../../../../shared/adapters/memory/membership-store.js';
import type { JourneyIndex } from '../../../../shared/domain/journeys/journey-records.js';
import { compileIndex } from '../../../../shared/domain/segments/definition/specs.js';
import { evaluateContacts } from '../../../../shared/domain/segments/evaluate-contacts.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const CLIENT = 7;
const clock = { now: () => new Date('2026-06-01T12:00:00.000Z') };
const journeyIndex = {
  version: 1,
  journeys: [
    {
      id: 100,
      name: 'on pro',
      status: 'live',
      live_version: 1,
      trigger: { segment: { segment_id: 1, on: 'enter' }, reentry: { mode: 'always' } },
      entry: 'send',
      settings: {},
      awaited_events: [],
      templates_in_use: [],
    },
  ],
} as unknown as JourneyIndex;

function setup() {
  const contacts = new MemoryContactStore();
  const data = new MemoryEngineData();
  const membership = new MemoryMembershipStore(
    { contacts, journeys: { indexOf: () => journeyIndex, versionOf: () => undefined } },
    data,
  );
  data.segmentIndexes.set(CLIENT, {
    version: 1,
    ...compileIndex([
      {
        id: 1,
        version: 1,
        definition: { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag: 'pro' }] }] },
      },
    ]),
  });
  contacts.contacts.set(clientKey(CLIENT, 1), contactRecord({ id: 1, client_id: CLIENT, tags: ['pro'] }));
  const segmentEvents = () => [...data.events.values()].filter((e) => e.origin === 'segment');
  return { data, membership, segmentEvents };
}

describe('segment trigger events under faults', () => {
  it('a lost enqueue after the membership write leaves the event queued for the sweep; the redelivery writes no second', async () => {
    // Prepare: the queue fails (the function dies between the commit and the send)
    const h = setup();
    const failing = { send: async () => Promise.reject(new Error('SQS down')) };

    // Act: evaluated, the enqueue lost, the message delivered again (twice)
    await evaluateContacts({ membership: h.membership, clock, queue: failing, log: () => undefined }, CLIENT, [1]);
    const sent: unknown[] = [];
    const queue = { send: async (_q: string, m: unknown) => void sent.push(m) };
    await evaluateContacts({ membership: h.membership, clock, queue }, CLIENT, [1]);
    await evaluateContacts({ membership: h.membership, clock, queue }, CLIENT, [1]);

    // Assess: one event, still queued (in the sweep's index), none sent by the redeliveries
    const events = h.segmentEvents();
    expect(events.map((e) => [e.type, e.segment_id, e.contact_id, e.queue_status])).toEqual([
      ['segment.entered', 1, 1, 'queued'],
    ]);
    expect(h.data.queuedIndex.has(clientKey(CLIENT, events[0]!.id))).toBe(true);
    expect(sent).toEqual([]);
  });

  it('a transition refused by its state condition writes no event; the retry writes one', async () => {
    // Prepare: another writer moves the state between the read and the commit
    const h = setup();
    h.membership.onRead = async () => {
      h.data.segmentStates.set(clientKey(CLIENT, 1), { sv: 5, members: {} });
    };
    const sent: unknown[] = [];
    const queue = { send: async (_q: string, m: unknown) => void sent.push(m) };

    // Act
    await evaluateContacts({ membership: h.membership, clock, queue }, CLIENT, [1]);

    // Assess: exactly one event, enqueued once
    expect(h.segmentEvents()).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});
