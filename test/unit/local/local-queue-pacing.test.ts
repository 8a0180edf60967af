import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_POLL_MS, LocalQueue, type LocalQueueConsumer } from '../../../local/engine/local-queue.js';
import type { LocalDelivery } from '../../../local/queue-functions.js';
import type { BatchMessage } from '../../../shared/platform.js';

const events = (count: number, from = 1): BatchMessage<'events'>[] =>
  Array.from({ length: count }, (_, i) => ({ message: { client_id: 7, event_id: from + i } }));
const eventId = (d: LocalDelivery) => (JSON.parse(d.body) as { event_id: number }).event_id;

/** One delivery as the consumer saw it: when (fake clock), which event, its receive count. */
interface Seen {
  at: number;
  event: number;
  receiveCount: number;
}

let queue: LocalQueue;
beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(async () => {
  const stopping = queue.stop();
  await vi.runOnlyPendingTimersAsync();
  await stopping;
  vi.useRealTimers();
});

function consuming(consumer: Partial<LocalQueueConsumer> & Pick<LocalQueueConsumer, 'deliver'>): LocalQueue {
  queue = new LocalQueue();
  queue.consume('events', { batchSize: 10, maxReceiveCount: 5, visibilityTimeoutMs: 1_000, ...consumer });
  return queue;
}

describe('LocalQueue pacing (as an SQS event source mapping)', () => {
  it('polls at a steady cadence while sends keep arriving faster than it', async () => {
    // Prepare
    const seen: Seen[] = [];
    const local = consuming({
      deliver: async (deliveries) => {
        for (const d of deliveries) seen.push({ at: Date.now(), event: eventId(d), receiveCount: d.receiveCount });
        return { failed: [] };
      },
    });

    // Act: a send every 10 ms for 400 ms, each before the next poll would come.
    for (let i = 1; i <= 40; i++) {
      await local.send('events', { client_id: 7, event_id: i });
      await vi.advanceTimersByTimeAsync(10);
    }

    // Assess: the first message went out within one poll interval (plus the one it arrived in), long before the sends
    // stopped, and deliveries kept coming poll after poll.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.at).toBeLessThanOrEqual(2 * LOCAL_POLL_MS);
    const pollsThatDelivered = new Set(seen.map((s) => s.at));
    expect(pollsThatDelivered.size).toBeGreaterThanOrEqual(400 / LOCAL_POLL_MS - 2);
  });

  it('runs at most maxConcurrency batches of at most batchSize at once, and every message once', async () => {
    // Prepare: batches that finish only when released.
    const batches: number[][] = [];
    const releases: (() => void)[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const local = consuming({
      batchSize: 3,
      maxConcurrency: 2,
      deliver: async (deliveries) => {
        batches.push(deliveries.map(eventId));
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return { failed: [] };
      },
    });
    await local.sendBatch('events', events(20));

    // Act + Assess: two batches of three are handed out and the others wait, however many polls pass.
    await vi.advanceTimersByTimeAsync(10 * LOCAL_POLL_MS);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    // Each released batch frees its poller, which takes the next batch at once.
    while (releases.length > 0) {
      releases.shift()!();
      await vi.advanceTimersByTimeAsync(LOCAL_POLL_MS);
    }
    expect(mostAtOnce).toBe(2);
    expect(batches.every((b) => b.length <= 3)).toBe(true);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(events(20).map((m) => m.message.event_id));
    expect(local.depth('events')).toBe(0);
  });

  it('redelivers nothing while messages wait their turn behind a resource that serves one batch at a time', async () => {
    // Prepare: like DynamoDB Local's single writer, each batch takes 100 ms of a resource that serves one at a time.
    // 30 messages are 3 s of work; the visibility timeout is 1 s.
    const seen: Seen[] = [];
    let resource = Promise.resolve();
    const local = consuming({
      batchSize: 1,
      maxConcurrency: 2,
      visibilityTimeoutMs: 1_000,
      deliver: async (deliveries) => {
        const turn = resource.then(() => new Promise<void>((resolve) => setTimeout(resolve, 100)));
        resource = turn;
        await turn;
        for (const d of deliveries) seen.push({ at: Date.now(), event: eventId(d), receiveCount: d.receiveCount });
        return { failed: [] };
      },
    });

    // Act
    await local.sendBatch('events', events(30));
    await vi.advanceTimersByTimeAsync(5_000);

    // Assess
    expect(seen.map((s) => s.event).sort((a, b) => a - b)).toEqual(events(30).map((m) => m.message.event_id));
    expect(seen.every((s) => s.receiveCount === 1)).toBe(true);
    expect(local.depth('events')).toBe(0);
    expect(local.deadLetters).toEqual([]);
  });

  it("starts a message's visibility timeout when it is handed over, not while it waited in the process", async () => {
    // Prepare: events 1 and 2 hold both slots for 900 ms; event 3 waits, then fails at once.
    const handed: Seen[] = [];
    const local = consuming({
      batchSize: 1,
      maxConcurrency: 2,
      visibilityTimeoutMs: 1_000,
      deliver: async (deliveries) => {
        const d = deliveries[0]!;
        handed.push({ at: Date.now(), event: eventId(d), receiveCount: d.receiveCount });
        if (eventId(d) === 3) return { failed: d.receiveCount === 1 ? [d.messageId] : [] };
        await new Promise((resolve) => setTimeout(resolve, 900));
        return { failed: [] };
      },
    });

    // Act
    await local.sendBatch('events', events(3));
    await vi.advanceTimersByTimeAsync(4_000);

    // Assess: event 3 was first handed over once a slot freed (receive count 1: waiting received nothing) and came
    // back a full visibility timeout after that hand-off.
    const third = handed.filter((s) => s.event === 3);
    expect(third.map((s) => s.receiveCount)).toEqual([1, 2]);
    expect(third[0]!.at).toBeGreaterThanOrEqual(900);
    expect(third[1]!.at - third[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(third[1]!.at - third[0]!.at).toBeLessThanOrEqual(1_000 + 2 * LOCAL_POLL_MS);
    expect(local.depth('events')).toBe(0);
  });

  it('hands a delayed message over at the first poll after its delay, not before', async () => {
    // Prepare
    const seen: Seen[] = [];
    const local = consuming({
      deliver: async (deliveries) => {
        for (const d of deliveries) seen.push({ at: Date.now(), event: eventId(d), receiveCount: d.receiveCount });
        return { failed: [] };
      },
    });

    // Act
    await local.send('events', { client_id: 7, event_id: 1 }, { delaySeconds: 2 });
    await vi.advanceTimersByTimeAsync(1_990);
    const early = seen.length;
    await vi.advanceTimersByTimeAsync(2 * LOCAL_POLL_MS);

    // Assess
    expect(early).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.at).toBeGreaterThanOrEqual(2_000);
  });
});
