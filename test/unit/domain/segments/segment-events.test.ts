import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import { validateJourney } from '../../../../shared/domain/journeys/definition/validate-journey.js';
import type { IndexedJourney, JourneyIndex } from '../../../../shared/domain/journeys/journey-records.js';
import { planEntries } from '../../../../shared/domain/runs/plan-entries.js';
import { segmentEventsOf, segmentTriggersOf } from '../../../../shared/domain/segments/segment-events.js';

const now = new Date('2026-11-28T12:00:00.000Z');
const contact = { id: 5, client_id: 1, email: 'a@example.com', is_subscribed: true } as unknown as ContactRecord;

function journey(id: number, trigger: IndexedJourney['trigger'], status: 'live' | 'paused' = 'live'): IndexedJourney {
  return {
    id,
    name: `j${id}`,
    status,
    live_version: 1,
    trigger,
    entry: 'send',
    settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [] } as never,
    awaited_events: [],
    templates_in_use: [],
  };
}

const index: JourneyIndex = {
  version: 1,
  journeys: [
    journey(100, { segment: { segment_id: 7, on: 'enter' }, reentry: { mode: 'always' } }),
    journey(101, { segment: { segment_id: 7, on: 'leave' }, reentry: { mode: 'always' } }),
    journey(102, { segment: { segment_id: 8, on: 'enter' }, reentry: { mode: 'always' } }, 'paused'),
    journey(103, { event: 'segment.entered', reentry: { mode: 'always' } }),
  ],
};

let next = 1;
const drawId = () => next++;

describe('segment events', () => {
  it('a live journey listening to a move makes it an event; a paused one, another segment or none do not', () => {
    const triggers = segmentTriggersOf(index);
    expect([...triggers].sort()).toEqual(['7:enter', '7:leave']);
    const events = segmentEventsOf(
      { clientId: 1, contactId: 5, entered: [7, 8, 9], left: [] },
      contact,
      triggers,
      now,
      drawId,
    );
    expect(events.map((e) => [e.type, e.segment_id, e.origin, e.contact_id, e.queue_status])).toEqual([
      ['segment.entered', 7, 'segment', 5, 'queued'],
    ]);
    expect(
      segmentEventsOf({ clientId: 1, contactId: 5, entered: [], left: [7] }, contact, triggers, now, drawId),
    ).toHaveLength(1);
    expect(
      segmentEventsOf({ clientId: 1, contactId: 5, entered: [7], left: [] }, contact, new Set(), now, drawId),
    ).toEqual([]);
  });

  it("the engine's event starts the segment journey only; a client's event of the same type starts only event journeys", () => {
    const [engine] = segmentEventsOf(
      { clientId: 1, contactId: 5, entered: [7], left: [] },
      contact,
      segmentTriggersOf(index),
      now,
      drawId,
    ) as [EventRecord];
    const planned = planEntries({ contact, journeyIndex: index }, engine, now);
    expect(planned.runs.map((r) => r.journey_id)).toEqual([100]);
    const client: EventRecord = { ...engine, origin: undefined, segment_id: undefined } as unknown as EventRecord;
    delete (client as { origin?: string }).origin;
    expect(planEntries({ contact, journeyIndex: index }, client, now).runs.map((r) => r.journey_id)).toEqual([103]);
  });
});

describe('segment trigger validation', () => {
  const base = {
    entry: 'send',
    steps: [{ id: 'send', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null }],
    settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [] },
  };
  const refs = { templateIds: new Set([1]), topicIds: new Set<number>(), segmentIds: new Set([7]) };
  const issuesOf = (trigger: unknown) =>
    validateJourney({ ...base, trigger }, refs).issues.filter((i) => i.path.startsWith('trigger'));

  it('takes a segment of the client with enter or leave', () => {
    expect(issuesOf({ segment: { segment_id: 7, on: 'enter' }, reentry: { mode: 'once' } })).toEqual([]);
    expect(issuesOf({ segment: { segment_id: 7, on: 'leave' }, reentry: { mode: 'always' } })).toEqual([]);
  });

  it('refuses another segment, neither or both, a key or or_when on a segment, a bad direction', () => {
    expect(issuesOf({ segment: { segment_id: 9, on: 'enter' }, reentry: { mode: 'once' } })).toEqual([
      {
        path: 'trigger.segment.segment_id',
        condition: 'reference',
        error: 'Must name one of your segments: 9 is none',
      },
    ]);
    expect(issuesOf({ reentry: { mode: 'once' } }).map((i) => [i.path, i.condition])).toEqual([
      ['trigger.event', 'required'],
    ]);
    expect(
      issuesOf({
        event: 'signup',
        segment: { segment_id: 7, on: 'enter' },
        key: 'cart_id',
        reentry: { mode: 'once' },
      }).map((i) => [i.path, i.condition]),
    ).toEqual([
      ['trigger.segment', 'format'],
      ['trigger.key', 'format'],
    ]);
    expect(
      issuesOf({ segment: { segment_id: 7, on: 'joined' }, reentry: { mode: 'once' } }).map((i) => [
        i.path,
        i.condition,
      ]),
    ).toEqual([['trigger.segment.on', 'enum']]);
  });
});
