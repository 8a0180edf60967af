import { describe, expect, it } from 'vitest';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import { clientKey, MemoryEngineData } from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryMembershipStore } from '../../../../shared/adapters/memory/membership-store.js';
import { sweepSegmentEdges } from '../../../../shared/domain/segments/sweep-segment-edges.js';
import type { BatchMessage, Queue, QueueName } from '../../../../shared/platform.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');

function harness() {
  const data = new MemoryEngineData();
  const membership = new MemoryMembershipStore({ contacts: new MemoryContactStore() }, data);
  const sent: unknown[] = [];
  const queue: Queue = {
    send: async () => undefined,
    sendBatch: async <Q extends QueueName>(_q: Q, messages: readonly BatchMessage<Q>[]) => {
      sent.push(...messages.map((m) => m.message));
    },
  };
  const edge = (client: number, contact: number, at: string | undefined) =>
    data.segmentStates.set(clientKey(client, contact), {
      sv: 1,
      members: {},
      ...(at !== undefined ? { next_eval_at: at } : {}),
    });
  return { membership, queue, sent, edge, clock: { now: () => NOW } };
}

describe('sweepSegmentEdges', () => {
  it('sends the contacts whose edge has come, per client, 25 a message, and leaves the others', async () => {
    // Prepare
    const h = harness();
    for (let id = 1; id <= 30; id += 1) h.edge(7, id, '2026-06-01T11:00:00.000Z');
    h.edge(7, 31, NOW.toISOString());
    h.edge(7, 32, '2026-06-01T12:00:00.001Z');
    h.edge(7, 33, undefined);
    h.edge(8, 5, '2026-05-01T00:00:00.000Z');

    // Act
    const outcome = await sweepSegmentEdges(h);

    // Assess
    expect(outcome).toEqual({ due: 32, messages: 3 });
    const byClient = (client: number) =>
      (h.sent as { client_id: number; contact_ids: number[] }[])
        .filter((m) => m.client_id === client)
        .flatMap((m) => m.contact_ids)
        .sort((a, b) => a - b);
    expect(byClient(7)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(byClient(8)).toEqual([5]);
    expect(h.sent.every((m) => (m as { contact_ids: number[] }).contact_ids.length <= 25)).toBe(true);
  });

  it('takes at most its bound from one shard, oldest first, leaving the rest to the next run', async () => {
    // Prepare
    const h = harness();
    // Contacts 8, 16, 24 share due shard 0.
    h.edge(7, 24, '2026-06-01T10:00:00.000Z');
    h.edge(7, 8, '2026-06-01T08:00:00.000Z');
    h.edge(7, 16, '2026-06-01T09:00:00.000Z');

    // Act
    const outcome = await sweepSegmentEdges(h, { perShard: 2, pageSize: 1 });

    // Assess
    expect(outcome).toEqual({ due: 2, messages: 1 });
    expect(h.sent).toEqual([{ kind: 'contacts', client_id: 7, contact_ids: [8, 16] }]);
  });
});
