import { describe, expect, it } from 'vitest';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import { backfillSegmentPage } from '../../../../shared/domain/segments/backfill-segment.js';
import { createSegment } from '../../../../shared/domain/segments/create.js';
import { previewSegment } from '../../../../shared/domain/segments/preview.js';
import type { SegmentCreateBody } from '../../../../shared/domain/segments/schemas-api.js';
import { AppError } from '../../../../shared/errors.js';
import type { Queue, SegmentsMessage } from '../../../../shared/platform.js';
import { clientKey, MemoryEngineData } from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryMembershipStore } from '../../../../shared/adapters/memory/membership-store.js';
import { MemoryTrackingStore } from '../../../../shared/adapters/memory/tracking-store.js';
import { segmentHolds } from '../../../../shared/domain/segments/definition/evaluate.js';
import { nextEdgeOf } from '../../../../shared/domain/segments/definition/next-edge.js';
import { compileIndex, engagementSourcesOf, watchedOf } from '../../../../shared/domain/segments/definition/specs.js';
import type {
  CompiledSegment,
  SegmentCondition,
  SegmentDefinition,
  SegmentInput,
} from '../../../../shared/domain/segments/definition/types.js';
import { validateSegment } from '../../../../shared/domain/segments/definition/validate-segment.js';
import { sourceKeyOfMessage } from '../../../../shared/domain/segments/engagement-source.js';
import { evaluateContacts } from '../../../../shared/domain/segments/evaluate-contacts.js';
import { changeMatters } from '../../../../shared/domain/segments/route-segment-changes.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { SEGMENT_LIMITS } from '../../../../shared/public/segment-rules.js';
import { contactRecord } from '../../support/contact-fixtures.js';
import { contactWith, DAY, daysAgo, NOW } from './definition/segment-fixtures.js';

const one = (condition: SegmentCondition): SegmentDefinition => ({
  match: 'all',
  groups: [{ match: 'all', conditions: [condition] }],
});
const holds = (condition: SegmentCondition, input: Partial<SegmentInput>, now = NOW) =>
  segmentHolds(one(condition), { contact: contactWith(), ...input }, now);

describe('engagement with one source: evaluation', () => {
  it('human_opened of a broadcast holds on its human open only, whatever the other e-mails did', () => {
    const opened: SegmentCondition = { on: 'engagement', op: 'human_opened', source: { broadcast_id: 5 } };
    // The contact opened other e-mails (total_emails_opened 4) but none of broadcast 5.
    expect(holds(opened, {})).toBe(false);
    expect(holds(opened, { engagement: { B5: { sent_at: daysAgo(2) } } })).toBe(false);
    expect(holds(opened, { engagement: { B6: { opened_at: daysAgo(1) } } })).toBe(false);
    expect(holds(opened, { engagement: { B5: { sent_at: daysAgo(2), opened_at: daysAgo(1) } } })).toBe(true);
  });

  it('human_clicked within N days reads the last click of the source, strictly younger than N days', () => {
    const clicked: SegmentCondition = {
      on: 'engagement',
      op: 'human_clicked',
      within_days: 7,
      source: { journey_id: 1001 },
    };
    expect(holds(clicked, { engagement: { J1001: { opened_at: daysAgo(1) } } })).toBe(false);
    expect(holds(clicked, { engagement: { J1001: { clicked_at: daysAgo(6.9) } } })).toBe(true);
    expect(holds(clicked, { engagement: { J1001: { clicked_at: daysAgo(7) } } })).toBe(false);
  });

  it('not_opened of a broadcast: sent it and opened none; not sent it: does not hold', () => {
    const notOpened: SegmentCondition = { on: 'engagement', op: 'not_opened', source: { broadcast_id: 5 } };
    expect(holds(notOpened, {})).toBe(false);
    expect(holds(notOpened, { engagement: { B5: { sent_at: daysAgo(2) } } })).toBe(true);
    expect(holds(notOpened, { engagement: { B5: { sent_at: daysAgo(2), opened_at: daysAgo(1) } } })).toBe(false);
    // not_opened reads opened_at alone: the status step sets it on a click whose open was not seen as well.
    expect(holds(notOpened, { engagement: { B5: { sent_at: daysAgo(2), clicked_at: daysAgo(1) } } })).toBe(true);
  });

  it("not_opened of a journey reads the contact's sent_w<journey> as its sends", () => {
    const notOpened: SegmentCondition = { on: 'engagement', op: 'not_opened', source: { journey_id: 1002 } };
    expect(holds(notOpened, {})).toBe(false);
    expect(holds(notOpened, { contact: contactWith({ sent_w1002: daysAgo(3) }) })).toBe(true);
    expect(
      holds(notOpened, {
        contact: contactWith({ sent_w1002: daysAgo(3) }),
        engagement: { J1002: { opened_at: daysAgo(2) } },
      }),
    ).toBe(false);
  });
});

describe('engagement with one source: the time-relative edge', () => {
  it('is the instant the last open leaves the window, and the answer flips exactly there', () => {
    const opened: SegmentCondition = {
      on: 'engagement',
      op: 'human_opened',
      within_days: 3,
      source: { broadcast_id: 5 },
    };
    const input: SegmentInput = { contact: contactWith(), engagement: { B5: { opened_at: daysAgo(1) } } };
    const edge = nextEdgeOf([one(opened)], input, NOW);
    expect(edge?.toISOString()).toBe(new Date(NOW.getTime() + 2 * DAY).toISOString());
    expect(segmentHolds(one(opened), input, new Date(edge!.getTime() - 1))).toBe(true);
    expect(segmentHolds(one(opened), input, edge!)).toBe(false);
  });

  it('has none for not_opened (no window) nor for a source never opened', () => {
    const notOpened: SegmentCondition = { on: 'engagement', op: 'not_opened', source: { broadcast_id: 5 } };
    const windowed: SegmentCondition = {
      on: 'engagement',
      op: 'human_opened',
      within_days: 3,
      source: { broadcast_id: 5 },
    };
    const input: SegmentInput = { contact: contactWith(), engagement: { B5: { sent_at: daysAgo(1) } } };
    expect(nextEdgeOf([one(notOpened), one(windowed)], input, NOW)).toBeUndefined();
  });
});

describe('engagement with one source: what is watched and read', () => {
  it("watches the source's item (and a journey's sends for not_opened), and reads each source once", () => {
    const definitions = [
      one({ on: 'engagement', op: 'human_opened', source: { broadcast_id: 5 } }),
      one({ on: 'engagement', op: 'not_opened', source: { broadcast_id: 5 } }),
      one({ on: 'engagement', op: 'not_opened', source: { journey_id: 1002 } }),
    ];
    expect(watchedOf(definitions)).toEqual(['eng:B5', 'eng:J1002', 'sent_w1002', 'timezone']);
    expect(engagementSourcesOf(definitions)).toEqual(['B5', 'J1002']);
  });

  it('routes a change of an engagement item only when a segment reads its source', () => {
    const { watched } = compileIndex([
      { id: 1, version: 1, definition: one({ on: 'engagement', op: 'human_opened', source: { broadcast_id: 5 } }) },
    ]);
    const change = (source: string) => ({ clientId: 1, contactId: 2, item: 'engagement' as const, source, new: {} });
    expect(changeMatters(change('B5'), watched)).toBe(true);
    expect(changeMatters(change('B6'), watched)).toBe(false);
    expect(changeMatters(change('J1002'), watched)).toBe(false);
  });

  it("names a message's source: a broadcast's, a journey's send step's, none for a system workflow's", () => {
    expect(sourceKeyOfMessage({ broadcast_id: 9, workflow_id: 0 })).toBe('B9');
    expect(sourceKeyOfMessage({ workflow_id: 1004, step_id: 'welcome' })).toBe('J1004');
    expect(sourceKeyOfMessage({ workflow_id: 3 })).toBeUndefined();
  });
});

describe('engagement with one source: references', () => {
  const refs = (sources: string[], otherSources: string[] = []) => ({
    topicIds: new Set<number>(),
    otherSpecIds: new Set<string>(),
    otherSources: new Set(otherSources),
    sources: new Set(sources),
  });

  it("refuses a journey or broadcast the client does not have (another client's included) at its path", () => {
    const input = {
      match: 'all',
      groups: [
        {
          match: 'any',
          conditions: [
            { on: 'engagement', op: 'human_opened', source: { broadcast_id: 5 } },
            { on: 'engagement', op: 'not_opened', source: { journey_id: 1002 } },
          ],
        },
      ],
    };
    expect(validateSegment(input, refs(['B5', 'J1002'])).issues).toEqual([]);
    expect(validateSegment(input, refs(['J1002'])).issues).toEqual([
      {
        path: 'groups.0.conditions.0.source.broadcast_id',
        condition: 'reference',
        error: 'Must name one of your broadcasts: 5 is none',
      },
    ]);
    expect(validateSegment(input, refs(['B5'])).issues).toEqual([
      {
        path: 'groups.0.conditions.1.source.journey_id',
        condition: 'reference',
        error: 'Must name one of your journeys: 1002 is none',
      },
    ]);
  });

  it("refuses a new source beyond the client's limit, and takes one its segments read already", () => {
    const limit = SEGMENT_LIMITS.engagementSourcesPerClient;
    const others = Array.from({ length: limit }, (_, i) => `B${100 + i}`);
    const naming = (id: number) => one({ on: 'engagement', op: 'human_opened', source: { broadcast_id: id } });
    expect(validateSegment(naming(100), refs(['B100'], others)).issues).toEqual([]);
    expect(validateSegment(naming(5), refs(['B5'], others)).issues).toEqual([
      expect.objectContaining({ path: 'groups.0.conditions.0.source', condition: 'max' }),
    ]);
  });
});

describe('engagement with one source: the memory adapters end to end', () => {
  const CLIENT = 3;
  const clock = { now: () => NOW };
  const segment = (id: number, condition: SegmentCondition): CompiledSegment => ({
    id,
    version: 1,
    definition: one(condition),
  });

  it('a human open of broadcast 5 recorded by the tracking store moves the contact from "not opened" to "opened"', async () => {
    // Prepare: two contacts sent broadcast 5; segments "opened B5" (1) and "not opened B5" (2).
    const contacts = new MemoryContactStore();
    const data = new MemoryEngineData();
    const membership = new MemoryMembershipStore({ contacts }, data);
    const tracking = new MemoryTrackingStore({ contacts }, data);
    for (const id of [1, 2]) {
      contacts.contacts.set(clientKey(CLIENT, id), contactRecord({ id, client_id: CLIENT }));
      data.contactEngagement.apply(CLIENT, id, { source: 'B5', sentAt: daysAgo(1) });
    }
    data.segmentIndexes.set(CLIENT, {
      version: 1,
      ...compileIndex([
        segment(1, { on: 'engagement', op: 'human_opened', source: { broadcast_id: 5 } }),
        segment(2, { on: 'engagement', op: 'not_opened', source: { broadcast_id: 5 } }),
      ]),
    });
    await evaluateContacts({ membership, clock }, CLIENT, [1, 2]);
    expect(data.segmentStates.get(clientKey(CLIENT, 1))?.members).toEqual({ 2: 1 });

    // Act: contact 1 opens broadcast 5 in a browser (a human open, as track-notification classifies it).
    await tracking.record({
      message: { client_id: CLIENT, sent_email_id: 'e-1', contact_id: 1, workflow_id: 0, broadcast_id: 5 },
      log: { id: 'open-1', created_at: daysAgo(0.5), status: SENT_STATUS.opened, is_bot: false },
      contact: { lastActivityAt: daysAgo(0.5), lastOpenedAt: daysAgo(0.5), countOpen: true },
    });
    await evaluateContacts({ membership, clock }, CLIENT, [1, 2]);

    // Assess
    expect(data.segmentStates.get(clientKey(CLIENT, 1))?.members).toEqual({ 1: 1 });
    expect(data.segmentStates.get(clientKey(CLIENT, 2))?.members).toEqual({ 2: 1 });
  });

  it("a backfill's segment reads its own sources though the index does not name them yet", async () => {
    const contacts = new MemoryContactStore();
    const data = new MemoryEngineData();
    const membership = new MemoryMembershipStore({ contacts }, data);
    contacts.contacts.set(clientKey(CLIENT, 1), contactRecord({ id: 1, client_id: CLIENT }));
    data.contactEngagement.apply(CLIENT, 1, { source: 'B8', sentAt: daysAgo(1) });
    const building = segment(4, { on: 'engagement', op: 'not_opened', source: { broadcast_id: 8 } });

    const result = await evaluateContacts({ membership, clock }, CLIENT, [1], { segment: building });

    expect(result.entered).toBe(1);
  });
});

describe('engagement with one source: the segments API over memory ports', () => {
  it('refuses a broadcast the client does not have at its path, builds one it has from the sends, and previews it', async () => {
    // Prepare: client 3 has broadcast 5 (sent to contacts 1 and 2, opened by 1); client 4 has broadcast 6.
    const stores = memoryStores();
    const sent: SegmentsMessage[] = [];
    const queue = {
      send: async (_q: string, message: unknown) => void sent.push(message as SegmentsMessage),
      sendBatch: async (_q: string, messages: readonly { message: unknown }[]) =>
        void sent.push(...messages.map((m) => m.message as SegmentsMessage)),
    } as unknown as Queue;
    const deps = { ...stores, queue, clock: { now: () => NOW } };
    for (const id of [1, 2, 3])
      stores.contacts.contacts.set(clientKey(3, id), contactRecord({ id, client_id: 3, email: `c${id}@example.com` }));
    stores.segments.data.broadcastIds.set(3, new Set([5]));
    stores.segments.data.broadcastIds.set(4, new Set([6]));
    for (const id of [1, 2]) stores.segments.data.contactEngagement.apply(3, id, { source: 'B5', sentAt: daysAgo(2) });
    stores.segments.data.contactEngagement.apply(3, 1, { source: 'B5', openedAt: daysAgo(1) });
    // The API's body type is the schema's output (its contact `value` types are narrower than the engine's).
    const definition = (broadcastId: number) =>
      one({
        on: 'engagement',
        op: 'not_opened',
        source: { broadcast_id: broadcastId },
      }) as SegmentCreateBody['definition'];

    // Act
    const foreign = await createSegment(deps, 3, { name: 'Theirs', definition: definition(6) }).catch((e) => e);
    const preview = await previewSegment(deps, 3, { definition: definition(5) });
    await createSegment(deps, 3, { name: 'Not opened B5', definition: definition(5) });
    while (sent.length > 0) {
      const message = sent.shift()!;
      if (message.kind === 'backfill') await backfillSegmentPage(deps, message);
    }

    // Assess
    expect(foreign).toBeInstanceOf(AppError);
    expect((foreign as AppError).status).toBe(422);
    expect((foreign as AppError).items).toEqual([
      expect.objectContaining({ condition: 'reference', key: 'definition.groups.0.conditions.0.source.broadcast_id' }),
    ]);
    expect(preview).toMatchObject({ count: 1, sampled: 3, exact: true });
    const members = stores.segments.data.segmentMembers.get(`3\u00001`);
    expect([...(members?.keys() ?? [])]).toEqual([2]);
  });
});
