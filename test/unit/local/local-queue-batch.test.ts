import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueue } from '../../../local/engine/local-queue.js';
import type { LocalDelivery } from '../../../local/queue-functions.js';
import type { BatchMessage } from '../../../shared/platform.js';

const events = (count: number): BatchMessage<'events'>[] =>
  Array.from({ length: count }, (_, i) => ({ message: { client_id: 7, event_id: i + 1 } }));

let queue: LocalQueue;
afterEach(() => queue.stop());

function consumed(into: LocalDelivery[]): LocalQueue {
  queue = new LocalQueue();
  queue.consume('events', {
    batchSize: 10,
    maxReceiveCount: 3,
    visibilityTimeoutMs: 1_000,
    deliver: async (deliveries) => {
      into.push(...deliveries);
      return { failed: [] };
    },
  });
  return queue;
}

describe('LocalQueue.sendBatch', () => {
  it('delivers every message and counts one request per 10, as SQS bills SendMessageBatch', async () => {
    // Prepare
    const delivered: LocalDelivery[] = [];
    const local = consumed(delivered);
    // Act
    await local.sendBatch('events', events(25));
    await local.idle(5_000);
    // Assess
    expect(local.sends).toBe(3);
    const bodies = delivered.map((d) => d.body).sort();
    expect(bodies).toEqual(
      events(25)
        .map((m) => JSON.stringify(m.message))
        .sort(),
    );
  });

  it('holds a delayed entry back until its delay passed', async () => {
    // Prepare
    const delivered: LocalDelivery[] = [];
    const local = consumed(delivered);
    // Act
    await local.sendBatch('events', [
      { message: { client_id: 7, event_id: 1 } },
      { message: { client_id: 7, event_id: 2 }, options: { delaySeconds: 60 } },
    ]);
    await local.idle(5_000);
    // Assess
    expect(delivered.map((d) => d.body)).toEqual(['{"client_id":7,"event_id":1}']);
    expect(local.depth('events')).toBe(1);
  });

  it('enqueues nothing when one delay is out of range', async () => {
    // Prepare
    const local = consumed([]);
    // Act
    const sending = local.sendBatch('events', [
      ...events(3),
      { message: { client_id: 7, event_id: 9 }, options: { delaySeconds: 901 } },
    ]);
    // Assess
    await expect(sending).rejects.toThrow(RangeError);
    expect(local.depth('events')).toBe(0);
    expect(local.sends).toBe(0);
  });
});
