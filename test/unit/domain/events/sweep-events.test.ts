import { describe, expect, it } from 'vitest';
import { scheduledFunctions } from '../../../../functions/scheduled.js';
import { FixedClock } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryEventStore } from '../../../../shared/adapters/memory/event-store.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import {
  SWEEP_AFTER_MS,
  SWEEP_BUDGET_MS,
  sweepAllQueuedEvents,
  sweepQueuedEvents,
} from '../../../../shared/domain/events/sweep-events.js';
import type { BatchMessage, EventMessage, Queue, QueueName } from '../../../../shared/platform.js';

const NOW = '2026-01-15T10:00:00.000Z';
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();
const MINUTE = 60_000;

function queuedEvent(id: number, createdAt: string): EventRecord {
  return {
    id,
    client_id: 7,
    type: 'signup',
    email: 'ann@example.com',
    auto_create_contact: false,
    ts: createdAt,
    payload: { type: 'signup', email: 'ann@example.com' },
    mode: 'async',
    queue_status: 'queued',
    retry_count: 0,
    created_at: createdAt,
  };
}

/** Records each sendBatch call's event ids; `onBatch` runs before it is recorded (a clock to move, an outage). */
class BatchRecordingQueue implements Queue {
  readonly batches: number[][] = [];
  constructor(private readonly onBatch: () => void = () => undefined) {}
  async send(): Promise<void> {
    throw new Error('the sweeper sends in batches');
  }
  async sendBatch<Q extends QueueName>(_queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    this.onBatch();
    this.batches.push(messages.map((m) => (m.message as EventMessage).event_id));
  }
}

/** `count` queued events, 3 to 3 + count minutes old: id 1 the oldest. */
async function storeWithBacklog(count: number): Promise<MemoryEventStore> {
  const events = new MemoryEventStore();
  for (let id = count; id >= 1; id -= 1) await events.insert(queuedEvent(id, ago((count - id + 3) * MINUTE)));
  return events;
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('sweepQueuedEvents', () => {
  it('pages until no queued event is left, oldest first, one sendBatch per page', async () => {
    // Prepare
    const events = await storeWithBacklog(25);
    const queue = new BatchRecordingQueue();
    // Act
    const summary = await sweepQueuedEvents({ events, queue, clock: new FixedClock(new Date(NOW)) }, { pageSize: 10 });
    // Assess
    expect(summary).toEqual({ enqueued: 25, pages: 3, stoppedOnBudget: false });
    expect(queue.batches).toEqual([ids(1, 10), ids(11, 20), ids(21, 25)]);
  });

  it('sends each event as its pointer message to the events queue', async () => {
    // Prepare
    const events = await storeWithBacklog(1);
    const sent: unknown[] = [];
    const queue: Queue = {
      send: async () => undefined,
      sendBatch: async (name, messages) => void sent.push({ name, messages }),
    };
    // Act
    await sweepQueuedEvents({ events, queue, clock: new FixedClock(new Date(NOW)) });
    // Assess
    expect(sent).toEqual([{ name: 'events', messages: [{ message: { client_id: 7, event_id: 1 } }] }]);
  });

  it('reads no further page once its budget is spent, sends the page in hand, and says it stopped on the budget', async () => {
    // Prepare: each batch takes 20 s; the budget is 60 s.
    const events = await storeWithBacklog(100);
    const clock = new FixedClock(new Date(NOW));
    const queue = new BatchRecordingQueue(() => clock.advance(20_000));
    // Act
    const summary = await sweepQueuedEvents({ events, queue, clock }, { pageSize: 10, budgetMs: 60_000 });
    // Assess: pages read at 0, 20, 40 and 60 s; the one read at 60 s is still sent.
    expect(summary).toEqual({ enqueued: 40, pages: 4, stoppedOnBudget: true });
    expect(queue.batches).toEqual([ids(1, 10), ids(11, 20), ids(21, 30), ids(31, 40)]);
  });

  it('does not report the budget when it ran out with the last page in hand', async () => {
    // Prepare: 2 pages; the first batch takes the whole budget, the second page was read before it.
    const events = await storeWithBacklog(20);
    const clock = new FixedClock(new Date(NOW));
    const queue = new BatchRecordingQueue(() => clock.advance(60_000));
    // Act
    const summary = await sweepQueuedEvents({ events, queue, clock }, { pageSize: 10, budgetMs: 60_000 });
    // Assess
    expect(summary).toEqual({ enqueued: 20, pages: 2, stoppedOnBudget: false });
  });

  it.each([
    { olderThanMs: undefined, enqueued: [1, 2] },
    { olderThanMs: 10 * MINUTE, enqueued: [1] },
    { olderThanMs: 0, enqueued: [1, 2, 3, 4] },
  ])(
    'enqueues only the events created more than $olderThanMs ms ago (default SWEEP_AFTER_MS)',
    async ({ olderThanMs, enqueued }) => {
      // Prepare
      const events = new MemoryEventStore();
      await events.insert(queuedEvent(1, ago(60 * MINUTE)));
      await events.insert(queuedEvent(2, ago(SWEEP_AFTER_MS + 1)));
      await events.insert(queuedEvent(3, ago(SWEEP_AFTER_MS)));
      await events.insert(queuedEvent(4, ago(1)));
      const queue = new BatchRecordingQueue();
      // Act
      const summary = await sweepQueuedEvents(
        { events, queue, clock: new FixedClock(new Date(NOW)) },
        olderThanMs === undefined ? {} : { olderThanMs },
      );
      // Assess
      expect(queue.batches).toEqual([enqueued]);
      expect(summary).toEqual({ enqueued: enqueued.length, pages: 1, stoppedOnBudget: false });
    },
  );

  it('reads one page and sends nothing when no event is queued', async () => {
    // Prepare
    const queue = new BatchRecordingQueue();
    // Act
    const summary = await sweepQueuedEvents({
      events: new MemoryEventStore(),
      queue,
      clock: new FixedClock(new Date(NOW)),
    });
    // Assess
    expect(summary).toEqual({ enqueued: 0, pages: 1, stoppedOnBudget: false });
    expect(queue.batches).toEqual([]);
  });

  it('stops at the first page the queue refuses, saying how far it got', async () => {
    // Prepare: the second batch fails (SQS unavailable).
    const events = await storeWithBacklog(30);
    let calls = 0;
    const queue = new BatchRecordingQueue(() => {
      calls += 1;
      if (calls === 2) throw new Error('SqsQueue: 10 of 10 messages to the events queue were not accepted');
    });
    // Act
    const sweeping = sweepQueuedEvents({ events, queue, clock: new FixedClock(new Date(NOW)) }, { pageSize: 10 });
    // Assess
    await expect(sweeping).rejects.toThrow('the outbox sweep stopped after 10 events in 1 pages');
    expect(queue.batches).toEqual([ids(1, 10)]);
  });
});

describe('sweepAllQueuedEvents', () => {
  it('enqueues every queued event, whatever its age, with no budget', async () => {
    // Prepare: a clock that moves an hour per batch would stop any budgeted sweep after the first pages.
    const events = new MemoryEventStore();
    for (let id = 1; id <= 2_500; id += 1)
      await events.insert(queuedEvent(id, ago(id === 2_500 ? 1 : (2_500 - id) * MINUTE)));
    const clock = new FixedClock(new Date(NOW));
    const queue = new BatchRecordingQueue(() => clock.advance(60 * MINUTE));
    // Act
    const summary = await sweepAllQueuedEvents({ events, queue, clock });
    // Assess
    expect(summary).toEqual({ enqueued: 2_500, pages: 3, stoppedOnBudget: false });
    expect(queue.batches.map((b) => b.length)).toEqual([1_000, 1_000, 500]);
  });
});

describe('the sweeper’s default budget', () => {
  it('leaves the scheduled function at least 30 s of its timeout after the last page is read', () => {
    const definition = scheduledFunctions.find((f) => f.handler === 'sweep-events');
    expect((definition?.timeoutSeconds ?? 60) * 1000 - SWEEP_BUDGET_MS).toBeGreaterThanOrEqual(30_000);
  });
});
