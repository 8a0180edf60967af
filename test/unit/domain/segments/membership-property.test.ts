import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import { clientKey, copy, MemoryEngineData } from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryMembershipStore } from '../../../../shared/adapters/memory/membership-store.js';
import { segmentHolds } from '../../../../shared/domain/segments/definition/evaluate.js';
import { compileIndex, counterUpdateOf } from '../../../../shared/domain/segments/definition/specs.js';
import type { CompiledSegment } from '../../../../shared/domain/segments/definition/types.js';
import { evaluateContacts } from '../../../../shared/domain/segments/evaluate-contacts.js';
import type { SegmentIndex } from '../../../../shared/domain/segments/membership-store.js';
import { sweepSegmentEdges } from '../../../../shared/domain/segments/sweep-segment-edges.js';
import type { BatchMessage, Queue, QueueName, SegmentsMessage } from '../../../../shared/platform.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const CLIENT = 7;
const CONTACTS = [1, 2, 3];
const HOUR = 3_600_000;
const START = Date.parse('2026-06-01T00:00:00.000Z');

/** Segments of every kind a change can move: a tag, a custom field with the subscription, a date window, a count. */
const SEGMENTS: CompiledSegment[] = [
  {
    id: 1,
    version: 1,
    definition: { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has', tag: 'vip' }] }] },
  },
  {
    id: 2,
    version: 1,
    definition: {
      match: 'all',
      groups: [
        {
          match: 'all',
          conditions: [
            { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' },
            { on: 'subscription', op: 'subscribed' },
          ],
        },
      ],
    },
  },
  {
    id: 3,
    version: 1,
    definition: {
      // An edge that flips nothing for a tagged contact: its passing must still move the stored edge on.
      match: 'any',
      groups: [
        { match: 'all', conditions: [{ on: 'date', field: 'last_activity_at', op: 'within_days', value: 1 }] },
        { match: 'all', conditions: [{ on: 'tag', op: 'has', tag: 'vip' }] },
      ],
    },
  },
  {
    id: 4,
    version: 1,
    definition: {
      match: 'all',
      groups: [
        {
          match: 'all',
          conditions: [{ on: 'event_count', event: 'purchase', op: 'at_least', count: 2, within_days: 1 }],
        },
      ],
    },
  },
];
/** A redefinition of segment 1 (version 2), as an edit of the segment installs it. */
const SEGMENT_1_V2: CompiledSegment = {
  id: 1,
  version: 2,
  definition: { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has_not', tag: 'vip' }] }] },
};

type Op =
  | { kind: 'tag'; contact: number; on: boolean }
  | { kind: 'plan'; contact: number; pro: boolean }
  | { kind: 'subscribe'; contact: number; on: boolean }
  | { kind: 'activity'; contact: number }
  | { kind: 'zone'; contact: number; zone: string }
  | { kind: 'purchase'; contact: number }
  | { kind: 'remove'; contact: number }
  | { kind: 'time'; hours: number }
  | { kind: 'redefine' }
  | { kind: 'sweep' }
  /** Deliver a pending message; `keep`: it stays pending (a duplicate comes later); `crashAfter`: the worker dies after that many transitions written. */
  | { kind: 'deliver'; pick: number; keep: boolean; crashAfter?: number }
  /** Two workers take two pending messages at once (their reads and commits interleave). */
  | { kind: 'concurrent'; a: number; b: number }
  /**
   * A worker reads, then the contact changes and another worker evaluates that change to the end, then the first
   * commits what it decided on its stale read.
   */
  | { kind: 'raced'; pick: number; contact: number };

const contactId = fc.constantFrom(...CONTACTS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('tag' as const), contact: contactId, on: fc.boolean() }),
  fc.record({ kind: fc.constant('plan' as const), contact: contactId, pro: fc.boolean() }),
  fc.record({ kind: fc.constant('subscribe' as const), contact: contactId, on: fc.boolean() }),
  fc.record({ kind: fc.constant('activity' as const), contact: contactId }),
  fc.record({
    kind: fc.constant('zone' as const),
    contact: contactId,
    zone: fc.constantFrom('Europe/Paris', 'Asia/Tokyo'),
  }),
  fc.record({ kind: fc.constant('purchase' as const), contact: contactId }),
  fc.record({ kind: fc.constant('remove' as const), contact: contactId }),
  fc.record({ kind: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 30 }) }),
  fc.constant({ kind: 'redefine' as const }),
  fc.constant({ kind: 'sweep' as const }),
  fc.record(
    {
      kind: fc.constant('deliver' as const),
      pick: fc.nat(),
      keep: fc.boolean(),
      crashAfter: fc.integer({ min: 0, max: 2 }),
    },
    { requiredKeys: ['kind', 'pick', 'keep'] },
  ),
  fc.record({ kind: fc.constant('concurrent' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('raced' as const), pick: fc.nat(), contact: contactId }),
);

class CrashedWorker extends Error {}

/** A queue that keeps what it was given, for the test to deliver in any order, twice, or with a crash. */
class HeldQueue implements Queue {
  readonly pending: SegmentsMessage[] = [];
  async send<Q extends QueueName>(_queue: Q, message: never): Promise<void> {
    this.pending.push(message);
  }
  async sendBatch<Q extends QueueName>(_queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    for (const m of messages) this.pending.push(m.message as SegmentsMessage);
  }
}

function world() {
  const contacts = new MemoryContactStore();
  const data = new MemoryEngineData();
  const membership = new MemoryMembershipStore({ contacts }, data);
  let now = START;
  const clock = { now: () => new Date(now) };
  const queue = new HeldQueue();
  const install = (segments: CompiledSegment[], version: number) => {
    const index: SegmentIndex = { version, ...compileIndex(segments) };
    data.segmentIndexes.set(CLIENT, index);
  };
  install(SEGMENTS, 1);
  for (const id of CONTACTS)
    contacts.contacts.set(clientKey(CLIENT, id), contactRecord({ id, client_id: CLIENT, email: `c${id}@example.com` }));
  // What the change router would send for a contact's change (a message of its own: the router batches per stream
  // batch, which changes nothing here).
  const changed = (id: number) => queue.pending.push({ kind: 'contacts', client_id: CLIENT, contact_ids: [id] });
  const contactOf = (id: number) => contacts.contacts.get(clientKey(CLIENT, id));
  return {
    contacts,
    data,
    membership,
    queue,
    clock,
    advance: (ms: number) => {
      now += ms;
    },
    install,
    changed,
    contactOf,
  };
}

type World = ReturnType<typeof world>;

async function deliver(w: World, message: SegmentsMessage, crashAfter?: number): Promise<void> {
  // A backfill page of the redefined segment: every contact, that segment alone, at the version filled.
  const segment =
    message.kind === 'backfill'
      ? w.data.segmentIndexes
          .get(CLIENT)!
          .segments.find((s) => s.id === message.segment_id && s.version === message.version)
      : undefined;
  if (message.kind === 'backfill' && !segment) return;
  let writes = 0;
  w.membership.onWrite =
    crashAfter === undefined
      ? undefined
      : () => {
          writes += 1;
          if (writes > crashAfter) throw new CrashedWorker();
        };
  try {
    await evaluateContacts(
      { membership: w.membership, clock: w.clock },
      message.client_id,
      message.kind === 'contacts' ? message.contact_ids : CONTACTS,
      segment ? { segment } : {},
    );
  } finally {
    w.membership.onWrite = undefined;
  }
}

async function apply(w: World, o: Op): Promise<void> {
  const contact = 'contact' in o ? w.contactOf(o.contact) : undefined;
  const at = w.clock.now().toISOString();
  switch (o.kind) {
    case 'tag':
    case 'plan':
    case 'subscribe':
    case 'activity':
    case 'zone':
      if (!contact) return;
      if (o.kind === 'tag') contact.tags = o.on ? ['vip'] : [];
      if (o.kind === 'plan') contact.custom_fields = o.pro ? { plan: { id: 1, value: 'pro' } } : {};
      if (o.kind === 'subscribe') contact.is_subscribed = o.on;
      if (o.kind === 'activity') contact.last_activity_at = at;
      if (o.kind === 'zone') contact.timezone = o.zone;
      w.changed(o.contact);
      return;
    case 'purchase': {
      if (!contact) return;
      // As event processing writes the counters in its commit: from the ones read, one version up.
      const key = clientKey(CLIENT, o.contact);
      const next = counterUpdateOf(
        w.data.segmentIndexes.get(CLIENT)!,
        { type: 'purchase', ts: at },
        w.data.contactCounters.get(key),
      );
      if (next) w.data.contactCounters.set(key, next);
      w.changed(o.contact);
      return;
    }
    case 'remove':
      if (!contact) return;
      w.contacts.contacts.delete(clientKey(CLIENT, o.contact));
      w.data.contactCounters.delete(clientKey(CLIENT, o.contact));
      w.changed(o.contact);
      return;
    case 'time':
      w.advance(o.hours * HOUR);
      return;
    case 'redefine': {
      const version = (w.data.segmentIndexes.get(CLIENT)?.version ?? 1) + 1;
      w.install([SEGMENT_1_V2, ...SEGMENTS.slice(1)], version);
      // The backfill of the new version reaches every contact (one page here).
      w.queue.pending.push({
        kind: 'backfill',
        client_id: CLIENT,
        segment_id: 1,
        version: SEGMENT_1_V2.version,
        shard: 0,
        after: 0,
      });
      return;
    }
    case 'sweep':
      await sweepSegmentEdges({ membership: w.membership, queue: w.queue, clock: w.clock });
      return;
    case 'deliver': {
      if (w.queue.pending.length === 0) return;
      const i = o.pick % w.queue.pending.length;
      const message = w.queue.pending[i]!;
      const crashes = o.crashAfter !== undefined;
      if (!o.keep && !crashes) w.queue.pending.splice(i, 1);
      // A crashed worker's message stays on the queue: SQS delivers it again.
      await deliver(w, message, o.crashAfter).catch((error) => {
        if (!(error instanceof CrashedWorker)) throw error;
      });
      return;
    }
    case 'raced': {
      if (w.queue.pending.length === 0) return;
      const message = w.queue.pending[o.pick % w.queue.pending.length]!;
      w.membership.onRead = async () => {
        const contact = w.contactOf(o.contact);
        if (!contact) return;
        contact.tags = contact.tags.includes('vip') ? [] : ['vip'];
        contact.custom_fields = contact.custom_fields['plan'] ? {} : { plan: { id: 1, value: 'pro' } };
        await deliver(w, { kind: 'contacts', client_id: CLIENT, contact_ids: [o.contact] });
      };
      await deliver(w, message);
      w.membership.onRead = undefined;
      return;
    }
    case 'concurrent': {
      if (w.queue.pending.length === 0) return;
      const a = w.queue.pending[o.a % w.queue.pending.length]!;
      const b = w.queue.pending[o.b % w.queue.pending.length]!;
      await Promise.all([deliver(w, a), deliver(w, b)]);
      return;
    }
  }
}

/** Every message still queued delivered once (no crash), then the edges swept and drained, as time goes on. */
async function drain(w: World): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    while (w.queue.pending.length > 0) await deliver(w, w.queue.pending.shift()!);
    await sweepSegmentEdges({ membership: w.membership, queue: w.queue, clock: w.clock });
  }
  expect(w.queue.pending).toEqual([]);
}

function expected(w: World): Map<number, number[]> {
  const index = w.data.segmentIndexes.get(CLIENT)!;
  const now = w.clock.now();
  return new Map(
    index.segments.map((segment) => [
      segment.id,
      CONTACTS.filter((id) => {
        const contact = w.contactOf(id);
        if (!contact) return false;
        const counters = w.data.contactCounters.get(clientKey(CLIENT, id));
        return segmentHolds(segment.definition, { contact: copy(contact), ...(counters ? { counters } : {}) }, now);
      }),
    ]),
  );
}

describe('segment membership kept per contact', () => {
  it('ends with exactly the contacts each segment holds on their last state, whatever the order, duplicates and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        // Prepare
        const w = world();

        // Act
        for (const o of ops) await apply(w, o);
        await drain(w);

        // Assess
        for (const [segmentId, members] of expected(w)) {
          expect(w.membership.membersOf(CLIENT, segmentId)).toEqual(members);
          // The contacts' own states say the same, and every member entry carries its contact's zone.
          for (const id of CONTACTS) {
            const state = w.data.segmentStates.get(clientKey(CLIENT, id));
            expect(state?.members[segmentId] !== undefined).toBe(members.includes(id));
          }
          for (const id of members) {
            const entry = w.data.segmentMembers.get(`${CLIENT}\u0000${segmentId}`)?.get(id);
            expect(entry?.z).toBe(w.contactOf(id)?.timezone);
          }
        }
        // Nothing is left of a removed contact, and no edge that has passed is left waiting.
        for (const id of CONTACTS)
          if (!w.contactOf(id)) expect(w.data.segmentStates.has(clientKey(CLIENT, id))).toBe(false);
        const now = w.clock.now().toISOString();
        for (const state of w.data.segmentStates.values())
          if (state.next_eval_at !== undefined) expect(state.next_eval_at > now).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves a segment by time alone once the sweep finds the edge, and re-enters on new activity', async () => {
    // Prepare
    const w = world();
    await apply(w, { kind: 'activity', contact: 1 });
    await drain(w);
    expect(w.membership.membersOf(CLIENT, 3)).toEqual([1]);

    // Act
    w.advance(24 * HOUR + 1);
    await drain(w);
    const afterDay = w.membership.membersOf(CLIENT, 3);
    await apply(w, { kind: 'activity', contact: 1 });
    await drain(w);

    // Assess
    expect(afterDay).toEqual([]);
    expect(w.membership.membersOf(CLIENT, 3)).toEqual([1]);
  });

  it('moves a passed edge on even when it flips nothing, so the sweep does not find it again', async () => {
    // Prepare
    const w = world();
    await apply(w, { kind: 'tag', contact: 1, on: true });
    await apply(w, { kind: 'activity', contact: 1 });
    await drain(w);
    expect(w.data.segmentStates.get(clientKey(CLIENT, 1))?.next_eval_at).toBe('2026-06-02T00:00:00.000Z');

    // Act
    w.advance(25 * HOUR);
    const swept = await sweepSegmentEdges({ membership: w.membership, queue: w.queue, clock: w.clock });
    await drain(w);

    // Assess
    expect(swept).toEqual({ due: 1, messages: 1 });
    expect(w.membership.membersOf(CLIENT, 3)).toEqual([1]);
    expect(w.data.segmentStates.get(clientKey(CLIENT, 1))?.next_eval_at).toBeUndefined();
  });

  it('writes nothing when an evaluation finds nothing moved', async () => {
    // Prepare
    const w = world();
    await apply(w, { kind: 'tag', contact: 2, on: true });
    await drain(w);
    const state = copy(w.data.segmentStates.get(clientKey(CLIENT, 2)));
    let writes = 0;
    w.membership.onWrite = () => {
      writes += 1;
    };

    // Act
    const result = await evaluateContacts({ membership: w.membership, clock: w.clock }, CLIENT, [2, 2, 3]);

    // Assess
    expect(result).toEqual({ evaluated: 2, entered: 0, left: 0, written: 0 });
    expect(writes).toBe(0);
    expect(w.data.segmentStates.get(clientKey(CLIENT, 2))).toEqual(state);
  });
});
