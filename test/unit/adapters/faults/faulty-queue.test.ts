import { describe, expect, it } from 'vitest';
import { FaultDice } from '../../../../shared/adapters/faults/fault-dice.js';
import { FaultyQueue, type SqsFaultKind } from '../../../../shared/adapters/faults/faulty-queue.js';
import { seededRandom } from '../../../../shared/adapters/faults/seeded-random.js';
import type { BatchMessage, Queue, QueueName, SendOptions } from '../../../../shared/platform.js';

/** A queue that records every call it accepted. */
class RecordingQueue implements Queue {
  readonly calls: { op: 'send' | 'sendBatch'; queue: QueueName; messages: unknown[]; options?: SendOptions }[] = [];
  async send<Q extends QueueName>(queue: Q, message: unknown, options?: SendOptions): Promise<void> {
    this.calls.push({ op: 'send', queue, messages: [message], ...(options ? { options } : {}) });
  }
  async sendBatch<Q extends QueueName>(queue: Q, messages: readonly BatchMessage<Q>[]): Promise<void> {
    this.calls.push({ op: 'sendBatch', queue, messages: [...messages] });
  }
}

const faultyQueue = (kind: SqsFaultKind, rate: number, seed = 1) => {
  const inner = new RecordingQueue();
  return { inner, queue: new FaultyQueue(inner, new FaultDice([{ kind, rate }], seededRandom(seed))) };
};
const batch: BatchMessage<'workflow'>[] = [
  { message: { client_id: 7, execution_id: 1 } },
  { message: { client_id: 7, execution_id: 2 }, options: { delaySeconds: 60 } },
];

describe('FaultyQueue', () => {
  it('passes every send and sendBatch through unchanged at rate 0', async () => {
    // Prepare
    const { inner, queue } = faultyQueue('send-fail', 0);
    // Act
    await queue.send('events', { client_id: 7, event_id: 3 }, { delaySeconds: 5 });
    await queue.sendBatch('workflow', batch);
    // Assess
    expect(inner.calls).toEqual([
      { op: 'send', queue: 'events', messages: [{ client_id: 7, event_id: 3 }], options: { delaySeconds: 5 } },
      { op: 'sendBatch', queue: 'workflow', messages: batch },
    ]);
    expect(queue.counts).toEqual({ calls: 2, injected: { 'send-fail': 0 }, total: 0 });
  });

  it.each([
    { kind: 'send-fail' as const, name: 'InternalError', httpStatusCode: 500, fault: 'server' },
    { kind: 'throttle' as const, name: 'RequestThrottled', httpStatusCode: 400, fault: 'client' },
  ])('on $kind enqueues nothing and throws the SDK-shaped $name', async ({ kind, name, httpStatusCode, fault }) => {
    // Prepare
    const { inner, queue } = faultyQueue(kind, 1);
    // Act
    const sent = queue.send('events', { client_id: 7, event_id: 3 });
    const batched = queue.sendBatch('workflow', batch);
    // Assess
    const shape = { name, $fault: fault, $metadata: { httpStatusCode } };
    await expect(sent).rejects.toMatchObject(shape);
    await expect(batched).rejects.toMatchObject(shape);
    expect(inner.calls).toEqual([]);
    expect(queue.counts).toEqual({ calls: 2, injected: { [kind]: 2 }, total: 2 });
  });

  it('draws once per sendBatch call, whatever its size', async () => {
    // Prepare
    const { queue } = faultyQueue('send-fail', 0.5);
    // Act
    await queue
      .sendBatch(
        'workflow',
        Array.from({ length: 25 }, (_, i) => ({ message: { client_id: 7, execution_id: i } })),
      )
      .catch(() => {});
    // Assess
    expect(queue.counts.calls).toBe(1);
  });

  it('passes an empty batch through without a draw (it sends no request)', async () => {
    // Prepare
    const { inner, queue } = faultyQueue('send-fail', 1);
    // Act
    await queue.sendBatch('workflow', []);
    // Assess
    expect(inner.calls).toEqual([{ op: 'sendBatch', queue: 'workflow', messages: [] }]);
    expect(queue.counts.calls).toBe(0);
  });

  it('fails the same sends again when replayed with the same seed', async () => {
    // Prepare
    const run = async () => {
      const { inner, queue } = faultyQueue('send-fail', 0.4, 77);
      for (let i = 0; i < 30; i++) await queue.send('workflow', { client_id: 1, execution_id: i }).catch(() => {});
      return inner.calls.map((c) => (c.messages[0] as { execution_id: number }).execution_id);
    };
    // Act
    const first = await run();
    const replay = await run();
    // Assess
    expect(replay).toEqual(first);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(30);
  });
});
