import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueue } from '../../../local/engine/local-queue.js';
import type { LocalDelivery } from '../../../local/queue-functions.js';

let queue: LocalQueue;
afterEach(() => queue.stop());

/** A queue whose `events` consumer fails every delivery until `healed`, then records what it is given. */
function failingUntilHealed() {
  const state = { healed: false, delivered: [] as LocalDelivery[] };
  queue = new LocalQueue();
  queue.consume('events', {
    batchSize: 10,
    maxReceiveCount: 2,
    visibilityTimeoutMs: 0,
    deliver: async (deliveries) => {
      if (!state.healed) return { failed: deliveries.map((d) => d.messageId) };
      state.delivered.push(...deliveries);
      return { failed: [] };
    },
  });
  return state;
}

async function deadLettered(count: number): Promise<void> {
  while (queue.deadLetters.filter((letter) => letter.queue === 'events').length < count) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('LocalQueue.redrive', () => {
  it("moves the queue's dead letters back as new messages: same bodies, new message ids, receive counts from zero", async () => {
    // Prepare
    const state = failingUntilHealed();
    await queue.sendBatch('events', [
      { message: { client_id: 7, event_id: 1 } },
      { message: { client_id: 7, event_id: 2 } },
    ]);
    await deadLettered(2);
    const letters = [...queue.deadLetters];
    state.healed = true;

    // Act
    const moved = queue.redrive('events');
    await queue.idle(5_000);

    // Assess
    expect(moved).toBe(2);
    expect(queue.deadLetters).toEqual([]);
    expect(queue.depth('events')).toBe(0);
    expect(state.delivered.map((d) => [d.body, d.receiveCount]).sort()).toEqual([
      ['{"client_id":7,"event_id":1}', 1],
      ['{"client_id":7,"event_id":2}', 1],
    ]);
    const oldIds = new Set(letters.map((letter) => letter.messageId));
    expect(state.delivered.filter((d) => oldIds.has(d.messageId))).toEqual([]);
  });

  it("leaves the other queues' dead letters where they are", async () => {
    // Prepare
    queue = new LocalQueue();
    queue.deadLetters.push(
      { queue: 'workflow', messageId: 'w-1', body: '{"client_id":7,"execution_id":3}', receiveCount: 5 },
      { queue: 'events', messageId: 'e-1', body: '{"client_id":7,"event_id":4}', receiveCount: 5 },
      { queue: 'ses-status', messageId: 's-1', body: '{}', receiveCount: 5 },
    );

    // Act
    const moved = queue.redrive('events');

    // Assess: no consumer of events here, so the message waits in its queue.
    expect(moved).toBe(1);
    expect(queue.deadLetters.map((letter) => letter.messageId)).toEqual(['w-1', 's-1']);
    expect(queue.depth('events')).toBe(1);
    expect(queue.depth('workflow')).toBe(0);
  });

  it('answers 0 and changes nothing when the queue has no dead letters', () => {
    // Prepare
    queue = new LocalQueue();
    queue.deadLetters.push({ queue: 'workflow', messageId: 'w-1', body: '{}', receiveCount: 5 });

    // Act
    const moved = queue.redrive('events');

    // Assess
    expect(moved).toBe(0);
    expect(queue.deadLetters).toHaveLength(1);
    expect(queue.depth('events')).toBe(0);
  });

  it('refuses once the queue is stopped, keeping its dead letters', async () => {
    // Prepare
    queue = new LocalQueue();
    queue.deadLetters.push({ queue: 'events', messageId: 'e-1', body: '{}', receiveCount: 5 });
    await queue.stop();

    // Act + Assess
    expect(() => queue.redrive('events')).toThrow('the local queue is stopped');
    expect(queue.deadLetters).toHaveLength(1);
  });
});
